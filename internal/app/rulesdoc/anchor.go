package rulesdoc

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// anchor is the fragment GitHub gives a heading: the text lower-cased,
// every character but letters, digits, marks, '_', '-' and spaces
// dropped, and spaces turned into hyphens. Inline code marks are not
// part of the text.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.ReplaceAll(heading, "`", "")) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)

// anchors lists the fragments of a markdown page's headings, in order.
// A repeated heading gets GitHub's suffix (-1, -2, ...). Headings inside
// fenced code are not headings.
func anchors(md string) []string {
	var out []string
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
			continue
		}
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a := anchor(m[1])
		if n, dup := seen[a]; dup {
			seen[a] = n + 1
			a += "-" + strconv.Itoa(n+1)
		} else {
			seen[a] = 0
		}
		out = append(out, a)
	}
	return out
}
