package report_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func TestVisible(t *testing.T) {
	tabletest.Map(t, "Visible", func(s string) string { return textscan.Visible(s, textscan.Escapes) }, map[string]string{
		"plain text":       "plain text",
		"a\u202eb":         `a\u202eb`,
		"zero\u200bwidth":  `zero\u200bwidth`,
		"\ufeffbom":        `\ufeffbom`,
		"\x1b[31mred":      `\e[31mred`,
		"nul\x00":          `nul\u0000`,
		"c1\u0085":         `c1\u0085`,
		"tag\U000E0041":    `tag\U000e0041`,
		"iso\u2066x\u2069": `iso\u2066x\u2069`,
		"bad\xffbyte":      `bad\xffbyte`,
		"line\nbreak\ttab": `line\nbreak\ttab`,
		"crlf\r\n":         `crlf\r\n`,
		"émoji 🙂 ünïcödé":  "émoji 🙂 ünïcödé",
		"sep\u2028":        `sep\u2028`,
		"vs\ufe0f":         `vs\ufe0f`,
	})
	if got := textscan.Visible("a\nb\tc\u202e", textscan.EscapesKeepLines); got != "a\nb\tc\\u202e" {
		t.Errorf("Visible keeping lines = %q", got)
	}
}

func TestTruncate(t *testing.T) {
	if got := report.Truncate("héllo wörld", 5); got != "héllo … (+6 characters)" {
		t.Errorf("Truncate = %q", got)
	}
	if got := report.Truncate("short", 5); got != "short" {
		t.Errorf("Truncate = %q", got)
	}
	if got := report.Truncate("the quick brown fox jumps", 18); got != "the quick brown … (+10 characters)" {
		t.Errorf("Truncate at a word = %q", got)
	}
	if got := report.Line(strings.Repeat("\u202e", 10), 3); got != `\u202e\u202e\u202e … (+7 characters)` {
		t.Errorf("Line bounds before escaping: %q", got)
	}
}

func TestMarkdownEscaping(t *testing.T) {
	tabletest.Map(t, "Markdown", func(s string) string { return report.Markdown(s, 0) }, map[string]string{
		"@octocat":              "@&#8203;octocat",
		"see #12":               "see #&#8203;12",
		"GH-7 and gh-8":         "GH&#8203;-7 and gh&#8203;-8",
		"owner/repo#3":          "owner/repo#&#8203;3",
		"<img src=x>":           "&lt;img src=x&gt;",
		"<!-- x -->":            "&lt;&#33;-- x --&gt;",
		"a|b":                   "a&#124;b",
		"![i](u)":               "&#33;&#91;i&#93;&#40;u&#41;",
		"**b** _e_ `c` ~s~":     "&#42;&#42;b&#42;&#42; &#95;e&#95; &#96;c&#96; &#126;s&#126;",
		"https://x.y www.z.com": "https:&#8203;//x.y www&#8203;.z.com",
		"$x$ a\\b":              "&#36;x&#36; a&#92;b",
		"line\nbreak":           "line&#92;nbreak",
		"a & b \"q\" 'a'":       "a &amp; b &quot;q&quot; &#39;a&#39;",
	})
	if got := report.Code("a|b", 0); got != "<code>a&#124;b</code>" {
		t.Errorf("Code = %q", got)
	}
}

func TestCodeBlock(t *testing.T) {
	if got := report.CodeBlock("x", "json"); got != "```json\nx\n```" {
		t.Errorf("CodeBlock = %q", got)
	}
	got := report.CodeBlock("a\n````\nb\u202e\n", "text")
	if got != "`````text\na\n````\nb\\u202e\n`````" {
		t.Errorf("CodeBlock with a fence inside = %q", got)
	}
	if got := report.CodeBlock("<!-- mcp-surface:report id=a -->\n", "text"); got != "```text\n<\\u0021-- mcp-surface:report id=a --\\u003e\n```" {
		t.Errorf("CodeBlock with a marker inside = %q", got)
	}
}

func TestUncommented(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"a -> b, <! x, <- y, -- z", "a -> b, <! x, <- y, -- z"},
		{"<!-- mcp-surface:report id=a -->", `<\u0021-- mcp-surface:report id=a --\u003e`},
		{"<!---->", `<\u0021----\u003e`},
		{"<!-->", `<\u0021--\u003e`},
		{"<!--->", `<\u0021---\u003e`},
		{"<<!--!-->>", `<<\u0021--!--\u003e>`},
		{"--->-->", `---\u003e--\u003e`},
		{"<!<!----", `<!<\u0021----`},
		{"<\\u0021--", "<\\u0021--"}, // already escaped text is left alone
	} {
		got := report.Uncommented(tc.in)
		if got != tc.want {
			t.Errorf("Uncommented(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "<!--") || strings.Contains(got, "-->") {
			t.Errorf("Uncommented(%q) = %q still holds an opener or closer", tc.in, got)
		}
	}
}

func TestWorkflowEscaping(t *testing.T) {
	if got := report.WorkflowData("50% a\r\nb: c, d"); got != "50%25 a%0D%0Ab: c, d" {
		t.Errorf("WorkflowData = %q", got)
	}
	if got := report.WorkflowProperty("50% a\r\nb: c, d"); got != "50%25 a%0D%0Ab%3A c%2C d" {
		t.Errorf("WorkflowProperty = %q", got)
	}
}

func TestSARIFText(t *testing.T) {
	if got := report.SARIFText(`[x](https://e) \[y\] \\ \n`+"\u202e", 0); got != `\[x\](https://e) \\\[y\\\] \\\ \n\u202e` {
		t.Errorf("SARIFText = %q", got)
	}
}

func TestEscapeJSONHidden(t *testing.T) {
	in := []byte(`{"a":"x` + "\u202e\u200b\U000E0041" + `y","é":"ok"}`)
	out := report.EscapeJSONHidden(in)
	if string(out) != `{"a":"x\u202e\u200b\udb40\udc41y","é":"ok"}` {
		t.Errorf("EscapeJSONHidden = %s", out)
	}
	var a, b map[string]string
	if json.Unmarshal(in, &a) != nil || json.Unmarshal(out, &b) != nil || a["a"] != b["a"] {
		t.Errorf("decoded values differ: %q vs %q", a["a"], b["a"])
	}
}

func TestTextDiff(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"Get the forecast.", "Get the 3-day forecast.", "Get the {+3-day +}forecast."},
		{"one two three", "one four three", "one [-two-]{+four+} three"},
		{"a\nb\nc", "a\nB\nc\nd", "  a\n- b\n+ B\n  c\n+ d"},
		{"same", "same", ""},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9", "1\n2\n3\n4\nX\n6\n7\n8\n9", "  3\n  4\n- 5\n+ X\n  6\n  7"},
	} {
		if got := report.TextDiff(c.a, c.b); got != c.want {
			t.Errorf("TextDiff(%q, %q) =\n%s\nwant\n%s", c.a, c.b, got, c.want)
		}
	}
	// Bounded: a huge rewrite does not explode.
	big := strings.Repeat("word ", 20000)
	if got := report.TextDiff(big, big+"x"); len(got) > 5000 {
		t.Errorf("diff of a huge text is %d bytes", len(got))
	}
}

// Raw characters that must never reach a reader.
var rawHidden = []string{"\u202e", "\u202c", "\u2066", "\u2069", "\u200b", "\ufeff", "\x1b", "\x07", "\x00", "\u0085", "\u2028", "\U000E0041", "\xff"}

var (
	mentionRe  = regexp.MustCompile(`@[A-Za-z0-9]`)
	issueRe    = regexp.MustCompile(`(^|[^&])#[0-9]|(?i)\bgh-[0-9]`)
	tagRe      = regexp.MustCompile(`<(/?[A-Za-z!][^ >]*)`)
	annotation = regexp.MustCompile(`^::(error|warning|notice) (file=[^,:]*,line=[0-9]+,)?title=[^,:]*::`)
)

var ourTags = map[string]bool{"details": true, "/details": true, "summary": true, "/summary": true, "code": true, "/code": true, "br": true, "sub": true, "/sub": true}

// outsideCode drops fenced code blocks (their content is inert).
func outsideCode(md string) []string {
	var out []string
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if m := fence.FindStringSubmatch(lines[i]); m != nil {
			n := len(m[2])
			for i++; i < len(lines); i++ {
				if c := fence.FindStringSubmatch(lines[i]); c != nil && len(c[2]) >= n && c[3] == "" {
					break
				}
			}
			continue
		}
		out = append(out, lines[i])
	}
	return out
}

// TestHostileServer feeds a server whose names and descriptions carry
// every trick we know through every renderer and checks that none of it
// survives raw.
func TestHostileServer(t *testing.T) {
	for _, o := range []report.Options{{FailOn: rules.LevelError}, {FailOn: rules.LevelNote, ShowInfo: true}} {
		for _, format := range []string{"text", "json", "markdown", "github", "junit"} {
			out := string(render(t, format, reporttest.Hostile(), o))
			for _, h := range rawHidden {
				if strings.Contains(out, h) {
					t.Errorf("%s: raw %q survives", format, h)
				}
			}
			switch format {
			case "markdown":
				checkHostileMarkdown(t, out)
			case "text", "github":
				for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if strings.Contains(l, "##[") {
						t.Errorf("%s line %d holds a legacy workflow command: %.120s", format, i+1, l)
					}
					if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") && !(format == "github" && annotation.MatchString(l)) {
						t.Errorf("%s line %d could be read as a workflow command: %.120s", format, i+1, l)
					}
					if format == "github" && !strings.HasPrefix(l, "::") && !strings.HasPrefix(l, "mcp-surface: ") {
						t.Errorf("github line %d is neither a command nor our summary: %.120s", i+1, l)
					}
				}
			}
		}
	}
	// Colour is ours only: no escape sequence comes from the server.
	out := string(render(t, "text", reporttest.Hostile(), report.Options{Color: true}))
	stripped := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out, "")
	if strings.Contains(stripped, "\x1b") || strings.Contains(out, "\x1b[2J") {
		t.Error("text: an escape sequence from the server survives")
	}
}

func checkHostileMarkdown(t *testing.T, md string) {
	t.Helper()
	checkMarkdownStructure(t, md)
	if !strings.HasPrefix(md, report.MarkerPrefix) {
		t.Error("markdown: the marker is not first")
	}
	lines := outsideCode(md)
	text := strings.Join(lines, "\n")
	if n := strings.Count(text, "<!--"); n != 1 {
		t.Errorf("markdown: %d HTML comments outside code, want only our marker", n)
	}
	for _, bad := range []*regexp.Regexp{mentionRe, issueRe} {
		if m := bad.FindString(text); m != "" {
			t.Errorf("markdown: %q survives outside code", m)
		}
	}
	for _, m := range tagRe.FindAllStringSubmatch(text, -1) {
		if !ourTags[m[1]] && m[1] != "!--" {
			t.Errorf("markdown: HTML tag %q from the server", m[0])
		}
	}
	for _, bad := range []string{"![", "](javascript", "https://evil", "www.evil", "$", "**bold**", "_em_"} {
		if strings.Contains(text, bad) {
			t.Errorf("markdown: %q survives outside code", bad)
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "#") && !ourHeading(l) {
			t.Errorf("markdown: a heading from the server: %.80s", l)
		}
		if strings.HasPrefix(l, "::") || strings.HasPrefix(l, "|---") {
			t.Errorf("markdown line %d: server text starts a line: %.80s", i, l)
		}
	}
}

// ourHeading reports whether a heading line starts the way only ours do:
// a verdict icon, or a server's name in code.
func ourHeading(l string) bool {
	for _, p := range []string{"### ❌ ", "### ✅ ", "### ⚠️ ", "### ⚪ ", "#### <code>"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}
