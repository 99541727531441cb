package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

// rulesImport is this package's import path, as producers spell it.
const rulesImport = "github.com/mcp-surface/mcp-surface/pkg/rules"

// use is one place a producer names a rule.
type use struct {
	name string // the constant
	pos  string
}

// producerScan is what the module's non-test Go files outside this package
// say about rules.
type producerScan struct {
	// refs are the ID constants producers name.
	refs []use
	// literals are string literals that spell a registered ID, or a
	// fragment of one that can only serve to build an ID.
	literals []use
	// ruleArgs are string literals given where a finding's rule goes: the
	// first argument of finding.New and the Rule field of a literal.
	ruleArgs []use
}

// scanProducers parses every non-test Go file of the module outside
// pkg/rules. Packages named *test (test helpers) count for the literal
// checks but not as producers.
func scanProducers(t *testing.T) producerScan {
	t.Helper()
	root := sharedtest.Root(t)
	self := filepath.Join(root, "pkg", "rules")
	var sc producerScan
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path == self || n == "testdata" || n == "vendor" || n == "node_modules" || (path != root && strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		sc.file(fset, root, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.refs) == 0 {
		t.Fatal("no producer names a rule: the scan is broken")
	}
	return sc
}

func (sc *producerScan) file(fset *token.FileSet, root string, f *ast.File) {
	rulesName, findingName := "", ""
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		switch p {
		case rulesImport:
			rulesName = name
		case "github.com/mcp-surface/mcp-surface/pkg/finding":
			findingName = name
		}
	}
	helper := strings.HasSuffix(f.Name.Name, "test")
	where := func(n ast.Node) string {
		p := fset.Position(n.Pos())
		rel, _ := filepath.Rel(root, p.Filename)
		return filepath.ToSlash(rel) + ":" + strconv.Itoa(p.Line)
	}
	ruleArg := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			sc.ruleArgs = append(sc.ruleArgs, use{lit.Value, where(lit)})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && rulesName != "" && x.Name == rulesName && !helper {
				sc.refs = append(sc.refs, use{n.Sel.Name, where(n)})
			}
		case *ast.BasicLit:
			if s, ok := stringLit(n); ok && spellsID(s) {
				sc.literals = append(sc.literals, use{n.Value, where(n)})
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && len(n.Args) > 0 {
				if x, ok := sel.X.(*ast.Ident); ok && findingName != "" && x.Name == findingName && sel.Sel.Name == "New" {
					ruleArg(n.Args[0])
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Rule" {
				ruleArg(n.Value)
			}
		}
		return true
	})
}

// verb splits a format string at the verbs that could insert words.
var verb = regexp.MustCompile(`%[-+# 0-9.]*[sqv]`)

// spellsID reports whether a literal is a registered ID, or a piece of a
// concatenated or formatted one: a prefix of an ID ending in a hyphen
// ("input-") or a suffix starting with one ("-removed"), alone or between
// the verbs of a format string.
func spellsID(s string) bool {
	if _, ok := Lookup(s); ok {
		return true
	}
	for _, piece := range verb.Split(s, -1) {
		if len(piece) < 2 || !kebab.MatchString(strings.Trim(piece, "-")) {
			continue
		}
		for _, r := range All() {
			if (strings.HasSuffix(piece, "-") && strings.HasPrefix(r.ID, piece)) ||
				(strings.HasPrefix(piece, "-") && strings.HasSuffix(r.ID, piece)) {
				return true
			}
		}
	}
	return false
}

// orphans returns, for each rule of table, what its row says wrongly
// about who reports it: a producer package that names no constant of the
// rule (refs maps a package to the constants it names), no producer and no
// reason, or a reason although a producer is listed.
func orphans(table []Rule, refs map[string]map[string]bool) []string {
	var out []string
	for _, r := range table {
		switch {
		case len(r.Producers) == 0 && strings.TrimSpace(r.Unreported) == "":
			out = append(out, r.ID+": no producer: name the package that reports it, or say why none does (unreported)")
		case len(r.Producers) > 0 && r.Unreported != "":
			out = append(out, r.ID+": both a producer and a reason why none reports it")
		}
		for _, p := range r.Producers {
			if !refs[p][constName(r.ID)] {
				out = append(out, r.ID+": its producer "+p+" does not name "+constName(r.ID))
			}
		}
	}
	slices.Sort(out)
	return out
}

// Every rule's row names the packages that report it, and each of them
// names the rule's constant; a rule nobody reports says why.
func TestEveryRuleHasAProducer(t *testing.T) {
	sc := scanProducers(t)
	refs := map[string]map[string]bool{}
	for _, u := range sc.refs {
		dir := path.Dir(u.pos[:strings.LastIndexByte(u.pos, ':')])
		if refs[dir] == nil {
			refs[dir] = map[string]bool{}
		}
		refs[dir][u.name] = true
	}
	for _, e := range orphans(All(), refs) {
		t.Error(e)
	}
}

// The check does catch a rule nobody reports, a wrong producer and a
// reason beside a producer.
func TestOrphanCheckReportsAnOrphan(t *testing.T) {
	table := []Rule{
		{ID: "tool-removed", Producers: []string{"pkg/diff"}},
		{ID: "tool-orphaned"},
		{ID: "tool-list-order-changed", Unreported: "unobservable"},
		{ID: "tool-added", Producers: []string{"pkg/spec"}},
		{ID: "tool-renamed", Producers: []string{"pkg/diff"}, Unreported: "stale"},
	}
	refs := map[string]map[string]bool{"pkg/diff": {"ToolRemoved": true, "ToolAdded": true, "ToolRenamed": true}}
	want := []string{
		"tool-added: its producer pkg/spec does not name ToolAdded",
		"tool-orphaned: no producer: name the package that reports it, or say why none does (unreported)",
		"tool-renamed: both a producer and a reason why none reports it",
	}
	if got := orphans(table, refs); !slices.Equal(got, want) {
		t.Errorf("orphans = %q\nwant %q", got, want)
	}
}

// Producers name rules only by their constants: no literal spells an ID or
// a piece of one, and no finding's rule is a literal (a typo in a constant
// does not compile; at run time finding.New panics on an unknown ID, which
// the fixture tests of each producer exercise).
func TestProducersUseRuleConstants(t *testing.T) {
	sc := scanProducers(t)
	for _, u := range sc.literals {
		t.Errorf("%s: literal %s spells a rule ID or a piece of one: use the rules constant and an explicit switch or table", u.pos, u.name)
	}
	for _, u := range sc.ruleArgs {
		t.Errorf("%s: literal %s given as a finding's rule: use the rules constant", u.pos, u.name)
	}
}

// The literal check is precise: it flags IDs and their fragments, not
// ordinary kebab-case strings or a server's numbered names.
func TestSpellsID(t *testing.T) {
	tabletest.Map(t, "spellsID", spellsID, map[string]bool{
		"tool-removed":          true,
		"input-":                true,
		"-removed":              true,
		"capability-%s-added":   true,
		"%s-schema-undecidable": true,
		"tool-%d":               false,
		"draft-07":              false,
		"protocol-version":      false,
		"x-mcp-header":          false,
		"-":                     false,
		"mcp-surface.json":      false,
	})
}
