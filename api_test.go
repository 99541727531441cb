package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The promise of pkg/ is what a Go program may import, and no more: every
// exported function of a pkg/ package has a caller outside its package
// (another package of the module, tests included) or an Example in its
// own tests, which documents it as part of the promise. The rest is
// unexported. Methods are left to review: telling whose method a selector
// names needs the type checker.

// apiFunc is one exported top-level function of a pkg/ package.
type apiFunc struct {
	dir, name string // the package's directory, relative to the module
}

// goFile is one parsed file of the module.
type goFile struct {
	dir  string
	test bool
	file *ast.File
}

// moduleFiles parses every Go file of the module (vendored, testdata and
// node_modules folders aside).
func moduleFiles(t *testing.T) []goFile {
	t.Helper()
	var out []goFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", "vendor", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, goFile{dir: filepath.ToSlash(filepath.Dir(p)), test: strings.HasSuffix(p, "_test.go"), file: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unpromised returns the exported functions of pkg/ that have neither a
// caller outside their package nor an Example, as "dir.Name", sorted.
func unpromised(files []goFile) []string {
	var funcs []apiFunc
	examples := map[apiFunc]bool{}
	for _, f := range files {
		if f.dir != "pkg" && !strings.HasPrefix(f.dir, "pkg/") {
			continue
		}
		for _, d := range f.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			if f.test {
				if name, ok := strings.CutPrefix(fd.Name.Name, "Example"); ok {
					// ExampleF documents F, and so does any Example that
					// calls it (in package x or in package x_test).
					name, _, _ = strings.Cut(name, "_")
					examples[apiFunc{f.dir, name}] = true
					var walk func(n ast.Node) bool
					walk = func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.Ident:
							examples[apiFunc{f.dir, n.Name}] = true
						case *ast.SelectorExpr:
							// pkg.F names F; x.F (a field, a method) does not.
							if id, ok := n.X.(*ast.Ident); ok && id.Name == path.Base(f.dir) {
								examples[apiFunc{f.dir, n.Sel.Name}] = true
							}
							ast.Inspect(n.X, walk)
							return false
						}
						return true
					}
					ast.Inspect(fd.Body, walk)
				}
				continue
			}
			if fd.Name.IsExported() {
				funcs = append(funcs, apiFunc{f.dir, fd.Name.Name})
			}
		}
	}
	used := map[apiFunc]bool{}
	for _, f := range files {
		// The local name of each imported package of this module.
		local := map[string]string{}
		for _, im := range f.file.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				continue
			}
			rel, ok := strings.CutPrefix(p, modulePath+"/")
			if !ok || rel == f.dir {
				continue
			}
			name := path.Base(rel)
			if im.Name != nil {
				name = im.Name.Name
			}
			local[name] = rel
		}
		if len(local) == 0 {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if dir, ok := local[id.Name]; ok {
						used[apiFunc{dir, sel.Sel.Name}] = true
					}
				}
			}
			return true
		})
	}
	var out []string
	for _, fn := range funcs {
		if !used[fn] && !examples[fn] {
			out = append(out, fn.dir+"."+fn.name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestEveryExportedFunctionIsPromised(t *testing.T) {
	for _, fn := range unpromised(moduleFiles(t)) {
		t.Errorf("%s is exported but has no caller outside its package and no Example: unexport it, or give it an Example", fn)
	}
}

// TestUnpromisedFires runs the check on a small made-up module, so that
// TestEveryExportedFunctionIsPromised can fail.
func TestUnpromisedFires(t *testing.T) {
	parse := func(dir, name, src string) goFile {
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		return goFile{dir: dir, test: strings.HasSuffix(name, "_test.go"), file: f}
	}
	files := []goFile{
		parse("pkg/a", "a.go", "package a\nfunc Called() {}\nfunc Documented() {}\nfunc Shown() {}\nfunc Lonely() {}\nfunc internal() {}\ntype T struct{}\nfunc (T) Method() {}\n"),
		parse("pkg/a", "a_test.go", "package a\nfunc ExampleDocumented() {}\nfunc TestLonely() { Lonely() }\n"),
		parse("pkg/a", "example_test.go", "package a_test\nimport \""+modulePath+"/pkg/a\"\nfunc Example() { a.Shown() }\n"),
		parse("pkg/a", "x_test.go", "package a_test\nimport \""+modulePath+"/pkg/a\"\nfunc TestX() { a.Lonely() }\n"),
		parse("pkg/b", "b.go", "package b\nimport alias \""+modulePath+"/pkg/a\"\nfunc F() { alias.Called() }\n"),
		parse("internal/app/cli", "cli.go", "package cli\nimport \""+modulePath+"/pkg/b\"\nvar _ = b.F\n"),
	}
	if got, want := unpromised(files), []string{"pkg/a.Lonely"}; !slices.Equal(got, want) {
		t.Errorf("unpromised = %q, want %q (a caller in its own external test does not count)", got, want)
	}
}
