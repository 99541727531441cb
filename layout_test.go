package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The layers of the tree (the README's "For Go programs" lists pkg/):
//
//   - pkg/: what a Go program may import; never the front end.
//   - internal/app/: the front end; may import anything but test helpers.
//   - internal/base/: domain-free foundations; import only each other
//     (and, in their tests, test helpers).
//   - internal/testkit/: helpers that only tests (and benchmark programs)
//     import.
//
// pkg/rules, the one rule table, is a leaf: it imports nothing of ours.
// pkg/capture records and never judges, so it does not import pkg/rules
// (its diagnostics are its own; pkg/spec names the rules). The action does
// not import the command line: what the two front ends share is
// internal/app/frontend. pkg/config only parses, into its own types: it
// imports pkg/rules and internal/base, no stage (pkg/check maps it).
// A package under internal/ outside the three tiers is an error too, so
// that a new package has to choose its tier.
//
// Inside pkg/, the packages stand in ranked bands (pkgBands), and a
// package imports only packages of its own band or lower ones; its
// external tests (package x_test) use it as a caller would and may import
// any band. A package of pkg/ in no band is an error: a new one chooses.

// pkgBands ranks the packages of pkg/, lowest first: the vocabulary every
// stage speaks; the models and engines; the judges that turn them into
// findings; the outputs that render findings; the pipeline that runs it
// all; the helper for server authors' own tests, which runs the pipeline.
var pkgBands = [][]string{
	{"pkg/rules", "pkg/finding", "pkg/config"},
	{"pkg/capture", "pkg/manifest", "pkg/diff/schemadiff", "pkg/diff/witness", "pkg/spec/clients", "pkg/locate", "pkg/cost"},
	{"pkg/spec", "pkg/probe", "pkg/diff", "pkg/policy"},
	{"pkg/report", "pkg/sarif"},
	{"pkg/check"},
	{"pkg/surfacetest"},
}

var pkgBandNames = []string{"vocabulary", "models and engines", "judges", "outputs", "pipeline", "users' tests"}

// bandOf is the rank of a pkg/ package in pkgBands, -1 for none.
func bandOf(p string) int {
	for i, band := range pkgBands {
		if slices.Contains(band, p) {
			return i
		}
	}
	return -1
}

// listedPackage is what `go list -json` says of one package that the
// layout rules read.
type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// layoutViolations returns one line per forbidden edge or misplaced
// package, sorted, for packages given by their paths relative to the
// module (the module's own root package is "").
func layoutViolations(pkgs []listedPackage) []string {
	var out []string
	rel := func(p string) (string, bool) {
		if p == modulePath {
			return "", true
		}
		r, ok := strings.CutPrefix(p, modulePath+"/")
		return r, ok
	}
	under := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		if under(from, "internal") && !under(from, "internal/app") && !under(from, "internal/base") && !under(from, "internal/testkit") {
			out = append(out, from+": under internal/ but in none of its tiers (app, base, testkit)")
		}
		if under(from, "pkg") && bandOf(from) < 0 {
			out = append(out, from+": in none of the bands of pkg/ (pkgBands in layout_test.go)")
		}
		check := func(imports []string, test, external bool) {
			for _, imp := range imports {
				to, ok := rel(imp)
				if !ok || to == from {
					continue
				}
				switch {
				case under(from, "internal/base") && !under(to, "internal/base") && !(test && under(to, "internal/testkit")):
					out = append(out, from+" imports "+to+": internal/base imports no other project package")
				case under(from, "pkg") && under(to, "internal/app"):
					out = append(out, from+" imports "+to+": pkg/ never imports internal/app")
				case from == "pkg/rules" && !test:
					out = append(out, from+" imports "+to+": pkg/rules is a leaf and imports nothing of the project")
				case from == "pkg/capture" && to == "pkg/rules" && !test:
					out = append(out, from+" imports "+to+": pkg/capture records and never judges; pkg/spec maps its diagnostics onto rules")
				case from == "pkg/config" && !test && to != "pkg/rules" && !under(to, "internal/base"):
					out = append(out, from+" imports "+to+": pkg/config parses into its own types and imports only pkg/rules and internal/base; pkg/check maps it onto the stages")
				case under(from, "internal/app/action") && under(to, "internal/app/cli"):
					out = append(out, from+" imports "+to+": the action stands alone; what it shares with the command line is internal/app/frontend")
				case under(from, "internal/testkit") && under(to, "internal/app"):
					out = append(out, from+" imports "+to+": test helpers do not import the front end")
				case under(to, "internal/testkit") && !test && !under(from, "internal/testkit") && !under(from, "bench"):
					out = append(out, from+" imports "+to+": only tests (and bench/ programs) import internal/testkit")
				case !external && under(from, "pkg") && under(to, "pkg") && bandOf(from) >= 0 && bandOf(to) > bandOf(from):
					out = append(out, fmt.Sprintf("%s imports %s: pkg/ imports only its own band or lower ones (%s is in the band of the %s, %s of the %s)",
						from, to, from, pkgBandNames[bandOf(from)], to, pkgBandNames[bandOf(to)]))
				}
			}
		}
		check(p.Imports, false, false)
		check(p.TestImports, true, false)
		check(p.XTestImports, true, true)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestLayout(t *testing.T) {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
	for _, v := range layoutViolations(pkgs) {
		t.Error(v)
	}
}

// TestLayoutRulesFire adds each kind of forbidden edge to a small tree
// and checks that the rules name it, so that TestLayout can fail.
func TestLayoutRulesFire(t *testing.T) {
	m := func(p string) string {
		if p == "" {
			return modulePath
		}
		return modulePath + "/" + p
	}
	pkg := func(path string, imports ...string) listedPackage {
		var im []string
		for _, i := range imports {
			im = append(im, m(i))
		}
		return listedPackage{ImportPath: m(path), Imports: im}
	}
	allowed := []listedPackage{
		pkg("", "internal/app/cli"),
		pkg("internal/app/cli", "pkg/check", "internal/base/gitrepo", "internal/app/action"),
		pkg("internal/app/action", "internal/app/frontend", "pkg/check"),
		pkg("pkg/spec", "pkg/capture", "pkg/rules"),
		pkg("pkg/config", "pkg/rules", "internal/base/infile"),
		pkg("pkg/policy", "pkg/config", "pkg/finding"),
		{ImportPath: m("pkg/capture"), Imports: []string{m("internal/base/canonjson")}, XTestImports: []string{m("pkg/rules")}},
		pkg("pkg/check", "pkg/rules", "internal/base/gitrepo"),
		pkg("internal/base/textscan", "internal/base/canonjson"),
		pkg("internal/testkit/spectest", "pkg/spec", "internal/testkit/sharedtest"),
		pkg("bench/rss", "internal/testkit/benchsurface"),
		{ImportPath: m("pkg/diff"), TestImports: []string{m("internal/testkit/txtartest")}},
		{ImportPath: m("pkg/rules"), Imports: []string{"fmt"}},
		{ImportPath: m("internal/base/gitrepo"), TestImports: []string{m("internal/testkit/gittest")}},
		pkg("pkg/diff/witness", "pkg/diff/schemadiff", "pkg/finding"),
		pkg("pkg/sarif", "pkg/report", "pkg/finding"),
		{ImportPath: m("pkg/capture"), XTestImports: []string{m("pkg/diff")}},
	}
	if v := layoutViolations(allowed); len(v) > 0 {
		t.Fatalf("allowed edges reported: %q", v)
	}
	for _, tc := range []struct {
		p    listedPackage
		want string
	}{
		{pkg("internal/base/gitrepo", "pkg/rules"), "internal/base imports no other project package"},
		{pkg("internal/base/canonjson", "internal/app/version"), "internal/base imports no other project package"},
		{listedPackage{ImportPath: m("internal/base/canonjson"), XTestImports: []string{m("pkg/manifest")}}, "internal/base imports no other project package"},
		{pkg("pkg/check", "internal/app/actionenv"), "pkg/ never imports internal/app"},
		{listedPackage{ImportPath: m("pkg/report"), XTestImports: []string{m("internal/app/cli")}}, "pkg/ never imports internal/app"},
		{pkg("pkg/rules", "internal/base/textdiff"), "pkg/rules is a leaf"},
		{pkg("pkg/manifest", "internal/testkit/testserver"), "only tests (and bench/ programs) import internal/testkit"},
		{pkg("internal/app/cli", "internal/testkit/gittest"), "only tests (and bench/ programs) import internal/testkit"},
		{pkg("internal/testkit/githubtest", "internal/app/github"), "test helpers do not import the front end"},
		{pkg("internal/locate"), "in none of its tiers"},
		{pkg("pkg/capture", "pkg/rules"), "pkg/capture records and never judges"},
		{pkg("internal/app/action", "internal/app/cli"), "the action stands alone"},
		{pkg("pkg/diff/schemadiff", "pkg/sarif"), "pkg/ imports only its own band or lower ones (pkg/diff/schemadiff is in the band of the models and engines, pkg/sarif of the outputs)"},
		{listedPackage{ImportPath: m("pkg/spec"), TestImports: []string{m("pkg/check")}}, "pkg/ imports only its own band or lower ones"},
		{pkg("pkg/report", "pkg/check"), "pkg/ imports only its own band or lower ones"},
		{pkg("pkg/newstage"), "in none of the bands of pkg/"},
		{pkg("pkg/config", "pkg/capture"), "pkg/config parses into its own types"},
		{pkg("pkg/config", "pkg/spec/clients"), "pkg/config parses into its own types"},
		{listedPackage{ImportPath: m("internal/app/action"), TestImports: []string{m("internal/app/cli")}}, "the action stands alone"},
	} {
		v := layoutViolations(append(slices.Clone(allowed), tc.p))
		if len(v) != 1 || !strings.Contains(v[0], tc.want) {
			t.Errorf("adding %s -> %v: got %q, want one line with %q", tc.p.ImportPath, tc.p.Imports, v, tc.want)
		}
	}
}
