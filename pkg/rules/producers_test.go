package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
)

// rulesImport is this package's import path, as producers spell it.
const rulesImport = "github.com/mcp-surface/mcp-surface/pkg/rules"

// notEmitted lists the rules that are in the table but that no producer
// reports, each with the reason. They stay registered because their IDs
// are reserved by the rule catalog and documented (`explain`, docs), and
// configuration may already name them.
var notEmitted = map[string]string{
	ToolListOrderChanged:    "snapshots sort tools by name, so two snapshots cannot show a change of the server's order",
	PromptMessagesChanged:   "snapshots do not record rendered prompt messages (prompts/get is not called for the surface)",
	ResourceContentsChanged: "snapshots do not record resource contents (resources/read is not part of the surface)",
}

// use is one place a producer names a rule.
type use struct {
	name string // the constant
	pos  string
}

// producerScan is what the module's non-test Go files outside this package
// say about rules.
type producerScan struct {
	// refs are the ID constants producers name (outside RuleIDs lists,
	// which enumerate rules rather than report them).
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
	var inList []ast.Node // bodies of RuleIDs functions
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "RuleIDs" && fd.Body != nil {
			inList = append(inList, fd.Body)
		}
	}
	listed := func(n ast.Node) bool {
		return slices.ContainsFunc(inList, func(b ast.Node) bool { return b.Pos() <= n.Pos() && n.End() <= b.End() })
	}
	ruleArg := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			sc.ruleArgs = append(sc.ruleArgs, use{lit.Value, where(lit)})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && rulesName != "" && x.Name == rulesName && !helper && !listed(n) {
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

// orphans returns the rules of table that refs never names and notEmitted
// does not waive, and the waivers that are stale: naming an unknown rule
// or a rule a producer does name.
func orphans(table []Rule, refs map[string]bool, waived map[string]string) (orphaned, stale []string) {
	known := map[string]bool{}
	for _, r := range table {
		known[r.ID] = true
		_, w := waived[r.ID]
		switch used := refs[constName(r.ID)]; {
		case !used && !w:
			orphaned = append(orphaned, r.ID)
		case used && w:
			stale = append(stale, r.ID+" (a producer names "+constName(r.ID)+")")
		}
	}
	for id := range waived {
		if !known[id] {
			stale = append(stale, id+" (not in the table)")
		}
	}
	slices.Sort(orphaned)
	slices.Sort(stale)
	return orphaned, stale
}

// Every rule in the table is reported by some producer, or waived in
// notEmitted with its reason.
func TestEveryRuleHasAProducer(t *testing.T) {
	sc := scanProducers(t)
	refs := map[string]bool{}
	for _, u := range sc.refs {
		refs[u.name] = true
	}
	orphaned, stale := orphans(All(), refs, notEmitted)
	for _, id := range orphaned {
		t.Errorf("%s: no producer outside pkg/rules names %s; report it, or waive it in notEmitted with the reason", id, constName(id))
	}
	for _, s := range stale {
		t.Errorf("stale notEmitted entry: %s", s)
	}
	for id, why := range notEmitted {
		if strings.TrimSpace(why) == "" {
			t.Errorf("notEmitted[%s] gives no reason", id)
		}
	}
}

// The orphan check does catch a rule nobody reports (and a stale waiver).
func TestOrphanCheckReportsAnOrphan(t *testing.T) {
	table := []Rule{{ID: "tool-removed"}, {ID: "tool-orphaned"}, {ID: "tool-list-order-changed"}, {ID: "tool-added"}}
	refs := map[string]bool{"ToolRemoved": true, "ToolAdded": true}
	waived := map[string]string{"tool-list-order-changed": "unobservable", "tool-gone": "was deleted"}
	orphaned, stale := orphans(table, refs, waived)
	if !slices.Equal(orphaned, []string{"tool-orphaned"}) {
		t.Errorf("orphans = %q, want [tool-orphaned]", orphaned)
	}
	if !slices.Equal(stale, []string{"tool-gone (not in the table)"}) {
		t.Errorf("stale = %q, want the waiver of the unknown rule", stale)
	}
	refs["ToolListOrderChanged"] = true
	if _, stale := orphans(table, refs, waived); len(stale) != 2 {
		t.Errorf("a waived rule that a producer names must be reported stale, got %q", stale)
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
	for s, want := range map[string]bool{
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
	} {
		if got := spellsID(s); got != want {
			t.Errorf("spellsID(%q) = %v, want %v", s, got, want)
		}
	}
}
