// Package txtartest reads and rewrites the sections of the txtar fixtures
// that several packages' tests are written in (a section per input, and a
// "want" section that -update rewrites).
package txtartest

import (
	"bytes"
	"fmt"
	"os"

	"golang.org/x/tools/txtar"
)

// ParseFile reads the txtar fixture at path. A file that is not in the
// form txtar.Format writes (a section without its final newline, say) is
// an error: -update would rewrite it although no expectation changed.
func ParseFile(path string) (*txtar.Archive, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := txtar.Parse(data)
	if !bytes.Equal(txtar.Format(a), data) {
		return nil, fmt.Errorf("%s: not in the form -update writes: end every section with a newline", path)
	}
	return a, nil
}

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
