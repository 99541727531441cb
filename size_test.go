package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The size limits of non-test Go files: a file over maxFileLines does
// several jobs, and a function over maxFuncLines hides its steps. Data
// written as code (a rule table) is no exception: it belongs in data.
const (
	maxFileLines = 700
	maxFuncLines = 200
)

// sizeAllowed are the files and functions still over a limit, each with
// why. An entry that no longer exceeds its limit is an error too, so that
// the list only shrinks. A function is "path:Name" (a method
// "path:Type.Name").
var sizeAllowed = map[string]string{}

// sizeViolations returns one line per file over maxFileLines and per
// function over maxFuncLines in src (a file's path, slash-separated and
// relative to the module root, to its text), sorted, leaving out the
// allowed ones; and the allowed entries that are within their limit.
func sizeViolations(src map[string]string, allowed map[string]string) (over, stale []string, err error) {
	used := map[string]bool{}
	report := func(key, msg string) {
		if _, ok := allowed[key]; ok {
			used[key] = true
			return
		}
		over = append(over, msg)
	}
	fset := token.NewFileSet()
	for path, text := range src {
		if n := strings.Count(text, "\n"); n > maxFileLines {
			report(path, fmt.Sprintf("%s: %d lines, over %d: split it by job", path, n, maxFileLines))
		}
		f, err := parser.ParseFile(fset, path, text, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				t := fn.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if g, ok := t.(*ast.IndexExpr); ok {
					t = g.X
				}
				if id, ok := t.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > maxFuncLines {
				report(path+":"+name, fmt.Sprintf("%s: func %s is %d lines, over %d: give its steps names", path, name, n, maxFuncLines))
			}
		}
	}
	for key := range allowed {
		if !used[key] {
			stale = append(stale, key)
		}
	}
	slices.Sort(over)
	slices.Sort(stale)
	return over, stale, nil
}

// moduleSources reads every non-test Go file of the module (not the
// e2e tests' node_modules, not testdata).
func moduleSources(t *testing.T) map[string]string {
	t.Helper()
	src := map[string]string{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "testdata", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		src[filepath.ToSlash(p)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestSizeLimits(t *testing.T) {
	src := moduleSources(t)
	if _, ok := src["pkg/check/check.go"]; !ok || len(src) < 100 {
		t.Fatalf("read %d files, not the module's", len(src))
	}
	over, stale, err := sizeViolations(src, sizeAllowed)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range over {
		t.Error(v)
	}
	for _, k := range stale {
		t.Errorf("%s is within its limit now: remove it from sizeAllowed", k)
	}
}

// TestSizeLimitsFire checks that the limits name a long file and a long
// function, method included, and that an allowlist entry is stale once
// its file fits.
func TestSizeLimitsFire(t *testing.T) {
	long := func(n int) string { return strings.Repeat("\t_ = 0\n", n) }
	src := map[string]string{
		"a/ok.go":     "package a\n\nfunc f() {\n" + long(10) + "}\n",
		"a/big.go":    "package a\n\n" + strings.Repeat("var _ = 0\n", maxFileLines),
		"a/fn.go":     "package a\n\nfunc g() {\n" + long(maxFuncLines-1) + "}\n",
		"a/method.go": "package a\n\ntype T struct{}\n\nfunc (*T) M() {\n" + long(maxFuncLines) + "}\n",
		"a/fits.go":   "package a\n\nfunc h() {\n" + long(maxFuncLines-2) + "}\n",
	}
	over, stale, err := sizeViolations(src, map[string]string{"a/ok.go": "no longer needed"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a/big.go: 702 lines, over 700: split it by job",
		"a/fn.go: func g is 201 lines, over 200: give its steps names",
		"a/method.go: func T.M is 202 lines, over 200: give its steps names",
	}
	if !slices.Equal(over, want) {
		t.Errorf("over = %q\nwant %q", over, want)
	}
	if !slices.Equal(stale, []string{"a/ok.go"}) {
		t.Errorf("stale = %q, want the entry of a/ok.go", stale)
	}
	over, _, _ = sizeViolations(src, map[string]string{"a/big.go": "pending", "a/fn.go:g": "pending", "a/method.go:T.M": "pending"})
	if len(over) != 0 {
		t.Errorf("allowed entries reported: %q", over)
	}
}
