package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// constName is the naming scheme of the ID constants: the kebab-case words,
// each capitalized (tool-removed → ToolRemoved).
func constName(id string) string {
	var b strings.Builder
	for _, w := range strings.Split(id, "-") {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// parseDir parses the non-test Go files of dir.
func parseDir(t *testing.T, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// stringLit returns the value of a string literal expression.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// The ID constants are the one written form of every ID: each rule has a
// constant named by the scheme, declared in the file of its spec, and the
// spec uses it; no other constant or literal in the package spells an ID.
func TestIDConstants(t *testing.T) {
	fset, files := parseDir(t, ".")
	type decl struct{ name, file string }
	consts := map[string]decl{}  // ID → constant
	names := map[string]string{} // constant → ID
	used := map[string]string{}  // constant → file of the spec that uses it
	for _, f := range files {
		file := filepath.Base(fset.Position(f.Pos()).Filename)
		// Untyped string constants whose value is kebab-case with a hyphen
		// are rule IDs; typed ones (levels, kinds) are not.
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if vs.Type != nil || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, v := range vs.Values {
					id, ok := stringLit(v)
					if !ok || !kebab.MatchString(id) || !strings.Contains(id, "-") {
						continue
					}
					name := vs.Names[i].Name
					if prev, dup := consts[id]; dup {
						t.Errorf("%s: %s and %s both spell %q", file, prev.name, name, id)
					}
					consts[id] = decl{name, file}
					names[name] = id
				}
			}
		}
		// The spec of a rule names its ID as the first argument of a
		// helper or in the ID field of a Rule literal.
		ast.Inspect(f, func(n ast.Node) bool {
			var id ast.Expr
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn, ok := n.Fun.(*ast.Ident); ok && (fn.Name == "surfaceChange" || fn.Name == "schemaChange") && len(n.Args) > 0 {
					id = n.Args[0]
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "ID" {
					id = n.Value
				}
			case *ast.BasicLit:
				if s, ok := stringLit(n); ok {
					if _, known := Lookup(s); known {
						if d := consts[s]; d.file != file || !isConstValue(f, n) {
							t.Errorf("%s: literal %q outside its constant's declaration", fset.Position(n.Pos()), s)
						}
					}
				}
			}
			if id == nil {
				return true
			}
			ident, ok := id.(*ast.Ident)
			if !ok {
				t.Errorf("%s: a rule's ID must be written as its constant", fset.Position(id.Pos()))
				return true
			}
			if ident.Name != "id" { // the helpers' own parameter
				used[ident.Name] = file
			}
			return true
		})
	}
	for _, r := range All() {
		d, ok := consts[r.ID]
		switch {
		case !ok:
			t.Errorf("%s: no constant (want %s = %q)", r.ID, constName(r.ID), r.ID)
		case d.name != constName(r.ID):
			t.Errorf("%s: constant is named %s, want %s", r.ID, d.name, constName(r.ID))
		case used[d.name] == "":
			t.Errorf("%s: the rule's spec does not use %s", r.ID, d.name)
		case used[d.name] != d.file:
			t.Errorf("%s: %s is declared in %s but its spec is in %s", r.ID, d.name, d.file, used[d.name])
		}
	}
	for id, d := range consts {
		if _, ok := Lookup(id); !ok {
			t.Errorf("%s: constant %s = %q names no rule", d.file, d.name, id)
		}
	}
	for name, file := range used {
		if _, ok := names[name]; !ok {
			t.Errorf("%s: a spec's ID %s is not an ID constant", file, name)
		}
	}
}

// isConstValue reports whether lit is the value of a constant declaration
// in f.
func isConstValue(f *ast.File, lit *ast.BasicLit) bool {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			for _, v := range s.(*ast.ValueSpec).Values {
				if v == ast.Expr(lit) {
					return true
				}
			}
		}
	}
	return false
}

func TestConstName(t *testing.T) {
	for id, want := range map[string]string{
		"tool-removed":                         "ToolRemoved",
		"input-schema-undecidable":             "InputSchemaUndecidable",
		"protocol-version-no-longer-supported": "ProtocolVersionNoLongerSupported",
	} {
		if got := constName(id); got != want {
			t.Errorf("constName(%q) = %q, want %q", id, got, want)
		}
	}
}
