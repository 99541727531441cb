package locate

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// Directories never searched: vendored, installed or generated trees.
var skipDirs = map[string]bool{
	".git": true, "vendor": true, "node_modules": true, "third_party": true, "third-party": true,
	"bower_components": true, "dist": true, "build": true, "out": true, "target": true,
	"coverage": true, "__pycache__": true, ".venv": true, "venv": true, "site-packages": true,
	".tox": true, ".mypy_cache": true, ".next": true, ".turbo": true,
}

// Directories whose matches are preferred less than the server's source.
var lowDirs = map[string]bool{
	"test": true, "tests": true, "__tests__": true, "testdata": true, "spec": true, "e2e": true,
	"docs": true, "doc": true, "examples": true, "example": true, "fixtures": true, ".github": true,
}

// Extensions never searched: binaries, media, archives, lockfiles' kin.
var skipExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".ico": true, ".webp": true, ".bmp": true,
	".pdf": true, ".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true,
	".jar": true, ".class": true, ".exe": true, ".dll": true, ".so": true, ".dylib": true, ".a": true,
	".o": true, ".wasm": true, ".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true,
	".mp3": true, ".mp4": true, ".mov": true, ".avi": true, ".svg": true, ".map": true, ".pyc": true,
	".lock": true, ".sum": true, ".snap": true,
}

// Files never searched by name: lockfiles and our own files, which repeat
// every name (the snapshot, the configuration's acknowledgements).
var skipNames = map[string]bool{
	"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "go.sum": true,
	"Cargo.lock": true, "poetry.lock": true, "uv.lock": true, "Pipfile.lock": true,
	".mcp-surface.yaml": true, ".mcp-surface.yml": true,
}

// Registration markers, matched case-sensitively in the lines around a
// literal. strong markers name the kind; any registration verb is weaker.
var strongMarkers = map[string][]string{
	finding.KindTool: {"registerTool", "server.tool(", ".tool(", "@mcp.tool", "@server.tool", "@app.tool",
		"AddTool", "NewTool", "mcp.Tool{", "Tool{", "add_tool", "tool(", "Tool(", "defineTool", "createTool"},
	finding.KindPrompt: {"registerPrompt", "server.prompt(", ".prompt(", "@mcp.prompt", "@server.prompt",
		"@app.prompt", "AddPrompt", "NewPrompt", "mcp.Prompt{", "Prompt{", "add_prompt", "prompt(", "Prompt("},
	finding.KindResource: {"registerResource", "server.resource(", ".resource(", "@mcp.resource",
		"@server.resource", "@app.resource", "AddResource", "NewResource", "mcp.Resource{", "Resource{",
		"add_resource", "resource(", "Resource("},
	finding.KindResourceTemplate: {"registerResource", "server.resource(", ".resource(", "@mcp.resource",
		"@server.resource", "@app.resource", "AddResourceTemplate", "ResourceTemplate", "NewResourceTemplate",
		"add_resource", "resource_template", "resource(", "Resource("},
}

// Keys that introduce an identity literal on the same line.
var nameKey = lazyre.New(`(?i)(\bname|\buri|\buritemplate|\buri_template)\s*["']?\s*[:=]\s*$`)

// pyDef finds a Python function definition and its name.
var pyDef = lazyre.New(`^\s*(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// pyDecorator finds an MCP decorator (the function's name becomes the
// tool or prompt name unless the decorator names it).
var pyDecorator = lazyre.New(`^\s*@[\w.]*\b(tool|prompt)\b`)

const (
	scoreKindWord   = 2 // the kind's word appears near the literal
	scoreStrong     = 6 // a registration marker of the kind appears near
	scoreNameKey    = 3 // name: / uri: just before the literal
	scorePyDef      = 8 // a decorated Python function of that name
	minScore        = 4 // below it, a literal is not evidence
	windowBefore    = 4 // lines searched above a literal
	windowAfter     = 1 // and below
	tierSource      = 2
	tierLow         = 1
	binarySniffSize = 8000
)

type candidate struct {
	path  string
	line  int
	tier  int
	score int
}

func better(a, b candidate) bool {
	if a.tier != b.tier {
		return a.tier > b.tier
	}
	return a.score > b.score
}

// searchSource looks for every subject in the tracked files.
func searchSource(o Options, subjects []finding.Subject) map[finding.Subject]codeResult {
	out := map[finding.Subject]codeResult{}
	if len(o.Files) == 0 || len(subjects) == 0 {
		return out
	}
	byLiteral := map[string][]finding.Subject{}
	byDef := map[string][]finding.Subject{}
	for _, s := range subjects {
		byLiteral[s.Name] = append(byLiteral[s.Name], s)
		if (s.Kind == finding.KindTool || s.Kind == finding.KindPrompt) && pyIdent(s.Name) {
			byDef[s.Name] = append(byDef[s.Name], s)
		}
	}
	best := map[finding.Subject][]candidate{}
	offer := func(s finding.Subject, c candidate) {
		if c.score < minScore {
			return
		}
		cur := best[s]
		switch {
		case len(cur) == 0 || better(c, cur[0]):
			best[s] = []candidate{c}
		case !better(cur[0], c):
			for _, x := range cur {
				if x.path == c.path && x.line == c.line {
					return
				}
			}
			best[s] = append(cur, c)
		}
	}

	files := slices.Clone(o.Files)
	slices.Sort(files)
	var total int64
	for _, rel := range files {
		rel = path.Clean(filepath.ToSlash(rel))
		if total >= o.MaxTotalBytes {
			break
		}
		if skipFile(rel, o) {
			continue
		}
		full := filepath.Join(o.Dir, filepath.FromSlash(rel))
		fi, err := os.Lstat(full)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > o.MaxFileBytes {
			continue
		}
		data, err := infile.Read(context.Background(), full, "a source file", o.MaxFileBytes)
		if err != nil {
			continue
		}
		total += int64(len(data))
		if bytes.IndexByte(data[:min(len(data), binarySniffSize)], 0) >= 0 {
			continue
		}
		tier := tierSource
		if lowPriority(rel) {
			tier = tierLow
		}
		scanFile(rel, tier, data, byLiteral, byDef, offer)
	}
	for s, cs := range best {
		if len(cs) == 1 {
			out[s] = codeResult{loc: Location{Path: cs[0].path, Line: cs[0].line, Source: SourceCode}, ok: true}
		}
	}
	return out
}

func skipFile(rel string, o Options) bool {
	if rel == o.Snapshot || rel == o.Fallback {
		return true
	}
	base := path.Base(rel)
	if skipNames[base] || (strings.HasPrefix(base, "mcp-surface") && strings.HasSuffix(base, ".json")) {
		return true
	}
	if strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".min.css") {
		return true
	}
	if skipExt[strings.ToLower(path.Ext(base))] {
		return true
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if skipDirs[d] {
			return true
		}
	}
	return false
}

func lowPriority(rel string) bool {
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if lowDirs[strings.ToLower(d)] {
			return true
		}
	}
	base := strings.ToLower(path.Base(rel))
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasPrefix(base, "test_"), strings.HasSuffix(base, "_test.py"),
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."),
		strings.HasSuffix(base, ".md"), strings.HasSuffix(base, ".rst"), strings.HasSuffix(base, ".txt"):
		return true
	}
	return false
}

func pyIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// scanFile offers every literal and decorated definition of a wanted name.
func scanFile(rel string, tier int, data []byte, byLiteral, byDef map[string][]finding.Subject, offer func(finding.Subject, candidate)) {
	lines := strings.Split(string(data), "\n")
	isPy := strings.HasSuffix(rel, ".py")
	for i, line := range lines {
		if isPy && len(byDef) > 0 {
			if m := pyDef().FindStringSubmatch(line); m != nil {
				if subs := byDef[m[1]]; subs != nil {
					for _, s := range subs {
						if decoratedAs(lines, i, s.Kind) {
							offer(s, candidate{path: rel, line: i + 1, tier: tier, score: scorePyDef})
						}
					}
				}
			}
		}
		if !strings.ContainsAny(line, "\"'`") {
			continue
		}
		forEachLiteral(line, func(lit string, start int) {
			subs := byLiteral[lit]
			for _, s := range subs {
				offer(s, candidate{path: rel, line: i + 1, tier: tier, score: scoreLiteral(lines, i, line[:start], s.Kind)})
			}
		})
	}
}

// decoratedAs reports whether the definition on line i carries an MCP
// decorator of the kind within the lines above it.
func decoratedAs(lines []string, i int, kind string) bool {
	for j := i - 1; j >= 0 && j >= i-windowBefore; j-- {
		m := pyDecorator().FindStringSubmatch(lines[j])
		if m != nil {
			return m[1] == kind
		}
		if t := strings.TrimSpace(lines[j]); t != "" && !strings.HasPrefix(t, "@") && !strings.HasPrefix(t, ")") && !strings.HasPrefix(t, "#") && !strings.HasSuffix(t, ",") && !strings.HasSuffix(t, "(") {
			return false
		}
	}
	return false
}

// scoreLiteral weighs the evidence that the literal on line i names the
// item of the given kind. prefix is the line up to the literal's quote.
func scoreLiteral(lines []string, i int, prefix, kind string) int {
	score := 1
	lo, hi := max(0, i-windowBefore), min(len(lines)-1, i+windowAfter)
	var win strings.Builder
	for j := lo; j <= hi; j++ {
		win.WriteString(lines[j])
		win.WriteByte('\n')
	}
	w := win.String()
	for _, m := range strongMarkers[kind] {
		if strings.Contains(w, m) {
			score += scoreStrong
			break
		}
	}
	word := kind
	if kind == finding.KindResourceTemplate {
		word = "template"
	}
	if strings.Contains(strings.ToLower(w), word) {
		score += scoreKindWord
	}
	if nameKey().MatchString(prefix) {
		score += scoreNameKey
	}
	return score
}

// forEachLiteral calls fn with the content of every string literal that
// opens and closes on the line, and the offset of its opening quote. A
// quote that does not close (an apostrophe in a comment) is skipped.
func forEachLiteral(line string, fn func(lit string, start int)) {
	for i := 0; i < len(line); i++ {
		q := line[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] != q {
			if line[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(line) {
			continue
		}
		fn(unescape(line[i+1:j]), i)
		i = j
	}
}

// unescape undoes the escapes names plausibly contain.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
