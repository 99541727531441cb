// Package txtartest reads and rewrites the sections of the txtar fixtures
// that several packages' tests are written in (a section per input, and a
// "want" section that -update rewrites).
package txtartest

import "golang.org/x/tools/txtar"

// Section is the data of the section called name, and whether there is
// one.
func Section(a *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Data is the data of the section called name; nil when there is none.
func Data(a *txtar.Archive, name string) []byte {
	d, _ := Section(a, name)
	return d
}

// Set replaces the data of the section called name, or adds the section
// at the end.
func Set(a *txtar.Archive, name, data string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = []byte(data)
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(data)})
}
