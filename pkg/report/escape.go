package report

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
)

// Untrusted text (tool names, descriptions, schema text, anything the
// server's author wrote) passes through exactly one of these functions
// before it reaches a reader. Every renderer uses them; nothing else in the
// package writes untrusted text.
//
//   - Line: textscan.Visible (invisible, bidirectional and control
//     characters become visible escapes: \u202e, \u200b, \e, \x80 for a
//     stray byte), one line (\n, \r, \t shown as escapes), bounded.
//   - Markdown: Line, then safe inline in markdown, in a table cell and in
//     HTML (<summary>): no markup, no HTML, no images, no @mentions, no
//     issue references, no autolinks, no math.
//   - Code: Markdown inside <code>, for names and pointers.
//   - CodeBlock: a fenced block longer than any backtick run inside, with
//     no HTML comment opener or closer (uncommented).
//   - workflowData, workflowProperty: GitHub workflow command escaping.
//   - SARIFText: Line, with SARIF's embedded-link brackets escaped.

// Limits of untrusted text, in runes, by where it appears.
const (
	MaxName    = 200  // a subject name, a pointer
	MaxMessage = 500  // a finding's message
	MaxText    = 4000 // a description in a text diff or excerpt
)

// zwsp is the entity the Markdown escaper inserts to break @mentions,
// issue references and autolinks. It is our own and invisible; the
// server's zero-width characters are made visible before it is added.
const zwsp = "&#8203;"

// hidden reports whether r must be made visible: the hidden characters
// of textscan.Hidden (the one definition the detectors use too) and the
// line breaks and tabs.
func hidden(r rune) bool {
	return r == '\n' || r == '\r' || r == '\t' || textscan.Hidden(r)
}

// truncate cuts s to at most max runes (max <= 0: no limit). A cut ends
// at a word when one ends in the last fifth of what is kept, and says so
// in words a reader follows: "…" and how many characters were left out
// ("a long description … (+1234 characters)").
func truncate(s string, max int) string {
	total := utf8.RuneCountInString(s)
	if max <= 0 || total <= max {
		return s
	}
	kept := textscan.Truncate(s, max, "")
	if i := strings.LastIndexByte(kept, ' '); i > 0 && utf8.RuneCountInString(kept[:i]) >= max*4/5 {
		kept = kept[:i]
	}
	return fmt.Sprintf("%s … (+%d characters)", strings.TrimRight(kept, " "), total-utf8.RuneCountInString(kept))
}

// Line is untrusted text for one line of a log or a terminal: bounded to
// max runes, every hidden character (newlines included) visible.
func Line(s string, max int) string {
	return textscan.Visible(truncate(s, max), textscan.Escapes)
}

// Markdown is untrusted text for inline markdown: a paragraph, a table
// cell, a heading or an HTML element such as <summary>. Every character
// that markdown or HTML could interpret is written as an entity; @, # and
// the start of URLs are followed by an invisible zero-width space entity
// so that GitHub links no mention, issue, commit range or URL; the result
// is one line.
func Markdown(s string, max int) string {
	s = Line(s, max)
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		case '\\', '`', '*', '_', '[', ']', '(', ')', '{', '}', '|', '~', '!', '$', '^':
			fmt.Fprintf(&b, "&#%d;", c)
		case '@', '#':
			b.WriteByte(c)
			b.WriteString(zwsp)
		case ':':
			b.WriteByte(c)
			if strings.HasPrefix(s[i+1:], "//") {
				b.WriteString(zwsp)
			}
		case '.':
			// www.example.com autolinks without a scheme.
			if i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				b.WriteString(zwsp)
			}
			b.WriteByte(c)
		case '-':
			// GH-123 references an issue.
			if i >= 2 && strings.EqualFold(s[i-2:i], "gh") {
				b.WriteString(zwsp)
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Code is untrusted text as inline code (names, pointers, rule IDs):
// Markdown inside <code>, which is safe in tables and HTML as well.
func Code(s string, max int) string {
	return "<code>" + Markdown(s, max) + "</code>"
}

// CodeBlock is untrusted text as a fenced code block: hidden characters
// visible (newlines kept), HTML comment delimiters broken (uncommented),
// the fence longer than any backtick run in the content, so that nothing
// inside can close it. lang is ours.
func CodeBlock(s, lang string) string {
	s = uncommented(textscan.Visible(s, textscan.EscapesKeepLines))
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	s = strings.TrimRight(s, "\n")
	return fence + lang + "\n" + s + "\n" + fence
}

// uncommented breaks every HTML comment opener and closer in s: "<!--"
// is written "<\u0021--" and "-->" "--\u003e", in the visible-escape form
// of the rest of this file. Inside a code block markdown shows the text as
// it is, but whatever reads the raw body does not: a publisher looking for
// a comment's hidden marker (ours, another server's) must never find one
// that a server wrote. Markdown needs no such step: it escapes < and >.
func uncommented(s string) string {
	if !strings.Contains(s, "<!--") && !strings.Contains(s, "-->") {
		return s
	}
	// Openers first: "<!-->" leaves "<\u0021-->", whose closer goes next.
	// Neither replacement can make a new opener or closer.
	s = strings.ReplaceAll(s, "<!--", `<\u0021--`)
	return strings.ReplaceAll(s, "-->", `--\u003e`)
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// workflowData escapes the message of a GitHub workflow command (the part
// after ::): %, \r and \n, after making hidden characters visible and
// bounding the length. Newlines we add ourselves go through as %0A.
func workflowData(s string) string {
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	return r.Replace(s)
}

// workflowProperty escapes a property value of a workflow command
// (file=, title=): workflowData plus : and ,.
func workflowProperty(s string) string {
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	return r.Replace(s)
}

// SARIFText is untrusted text for a SARIF plain-text message: one line,
// bounded, and with the brackets of SARIF's embedded links escaped (and a
// backslash before a bracket or a backslash) so the text cannot turn into
// a link.
func SARIFText(s string, max int) string {
	s = Line(s, max)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[' || c == ']':
			b.WriteByte('\\')
		case c == '\\' && i+1 < len(s) && strings.IndexByte(`[]\`, s[i+1]) >= 0:
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// EscapeJSONHidden rewrites the hidden characters of encoded JSON (valid
// JSON holds them only inside strings) as \u escapes: the decoded value is
// unchanged, and the file is safe to print or view.
func EscapeJSONHidden(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && hidden(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+64)
			}
			out = append(out, b[last:i]...)
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// LogLine is Line for a CI log or a terminal. The GitHub Actions runner
// reads a log line as a workflow command when it starts with "::" after
// leading spaces, and the older "##[command]" syntax anywhere in a line, so
// both are neutralized.
func LogLine(s string, max int) string {
	s = Line(s, max)
	s = strings.ReplaceAll(s, "##[", `##\[`)
	if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "::") {
		s = s[:len(s)-len(t)] + `\u003a` + t[1:]
	}
	return s
}
