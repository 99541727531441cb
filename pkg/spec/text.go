package spec

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Model-visible text is checked for three things a reviewer may not see
// but a model acts on: invisible characters, terminal escapes, and
// instructions aimed at the model.

// injectionPatterns match the usual shapes of instructions smuggled into
// tool metadata. Each is deliberately narrow (a phrase honest descriptions
// have no reason to contain) and runs only when the lower-cased text
// contains one of its cue words, which keeps thousands of descriptions
// cheap to scan.
//
// They are compiled on first use, not at start-up: every mcp-surface command
// links this package, and most never lint text.
var injectionPatterns = sync.OnceValue(func() []injectionPattern {
	return []injectionPattern{
		{[]string{"ignore", "disregard", "forget", "override"}, regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|former|original)\s+(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)`)},
		{[]string{"<"}, regexp.MustCompile(`(?i)<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin|sudo)\s*>|<\|\s*(?:im_start|im_end|system)\s*\|>`)},
		{[]string{"["}, regexp.MustCompile(`(?i)\[\s*/?\s*(?:system|inst)\s*\]`)},
		{[]string{"user"}, regexp.MustCompile(`(?i)\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|notify|alert|mention\s+(?:this\s+|it\s+)?to|reveal\s+(?:this\s+|it\s+)?to|show\s+(?:this\s+|it\s+)?to|let)\s+(?:the\s+)?user|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+)?user|\b(?:the\s+)?user\s+(?:must|should)\s*(?:not|n't)\s+(?:know|see|be\s+told|find\s+out)`)},
		{[]string{"system prompt"}, regexp.MustCompile(`(?i)\breveal\s+(?:your|the)\s+system\s+prompt`)},
		{[]string{"ssh", "id_rsa", "id_ed25519", "aws", "passwd", "shadow", ".env", "mcp.json", "npmrc", "netrc", "pgpass", "git-credentials", "docker/config", "private key"},
			regexp.MustCompile(`(?i)\b(?:read|cat|open|send|upload|include|pass|attach|print|copy|forward|post)\b[^.\n]{0,80}(?:~/\.ssh|\.ssh/|\bid_rsa\b|\bid_ed25519\b|~/\.aws|\.aws/credentials|/etc/passwd|/etc/shadow|~/\.env\b|\s\.env\b|\bmcp\.json\b|\.npmrc\b|\.netrc\b|\.pgpass\b|\.git-credentials\b|\.docker/config\.json|\bprivate\s+key\b)`)},
	}
})

type injectionPattern struct {
	cues []string
	re   *regexp.Regexp
}

// suspicious is a fast pre-check: false means text() would find nothing
// in s (only printable ASCII and no cue word), so that the thousands of
// ordinary descriptions of a large server cost one pass each.
func suspicious(s string) bool {
	var small [512]byte
	lower := small[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7F || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower = append(lower, c)
	}
	for _, p := range injectionPatterns() {
		for _, c := range p.cues {
			if bytes.Contains(lower, []byte(c)) {
				return true
			}
		}
	}
	return false
}

// injectionMarkers returns up to three phrases of s aimed at the model, in
// the order they appear.
func injectionMarkers(s string) []string {
	var lower string
	type hit struct {
		at   int
		text string
	}
	var hits []hit
	for _, p := range injectionPatterns() {
		if lower == "" {
			lower = strings.ToLower(s)
		}
		cued := false
		for _, c := range p.cues {
			if strings.Contains(lower, c) {
				cued = true
				break
			}
		}
		if !cued {
			continue
		}
		for _, loc := range p.re.FindAllStringIndex(s, 3) {
			hits = append(hits, hit{loc[0], s[loc[0]:loc[1]]})
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
	var out []string
	for _, h := range hits {
		if len(out) == 3 {
			break
		}
		out = append(out, h.text)
	}
	return out
}

// hiddenName names the invisible code points most often used.
var hiddenName = map[rune]string{
	0x00AD: "SOFT HYPHEN", 0x061C: "ARABIC LETTER MARK", 0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER", 0x2061: "FUNCTION APPLICATION", 0x2062: "INVISIBLE TIMES", 0x2063: "INVISIBLE SEPARATOR", 0x2064: "INVISIBLE PLUS",
	0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
	0x3164: "HANGUL FILLER", 0xFEFF: "ZERO WIDTH NO-BREAK SPACE", 0xFFA0: "HALFWIDTH HANGUL FILLER",
}

// isHidden reports whether r, between prev and next, is invisible text
// that has no business in metadata. Joiners and variation selectors are
// allowed where emoji and scripts that need them use them.
//
// inFlag says that r continues an emoji tag sequence (U+1F3F4 followed by
// tag characters, as in subdivision flags).
func isHidden(prev, r, next rune, inFlag bool) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r == 0x1B || r == 0x9B: // escapes: text-ansi-escape
		return false
	case r < 0x20 || r >= 0x7F && r <= 0x9F:
		return true
	case r == 0x200D: // ZWJ inside emoji sequences
		return !(isEmojiish(prev) && isEmojiish(next))
	case r == 0x200C: // ZWNJ inside Persian and Indic words
		return !(prev > 0x7F && unicode.IsLetter(prev) || unicode.Is(unicode.Mn, prev) || unicode.Is(unicode.Mc, prev))
	case r >= 0xFE00 && r <= 0xFE0F: // variation selectors after a symbol
		return prev < 0x80 || prev >= 0xFE00 && prev <= 0xFE0F
	case r >= 0xE0000 && r <= 0xE007F, r >= 0xE0100 && r <= 0xE01EF:
		// Tag characters only belong in a flag emoji sequence.
		return !(inFlag && r >= 0xE0020 && r <= 0xE007F)
	}
	if _, ok := hiddenName[r]; ok {
		return true
	}
	return unicode.In(r, unicode.Cf) && !(r >= 0x600 && r <= 0x605) // other format characters
}

func isEmojiish(r rune) bool {
	return unicode.Is(unicode.So, r) || r >= 0x1F3FB && r <= 0x1F3FF || r >= 0xFE00 && r <= 0xFE0F || r == 0x2640 || r == 0x2642
}

func runeLabel(r rune) string {
	s := fmt.Sprintf("U+%04X", r)
	if n, ok := hiddenName[r]; ok {
		return s + " " + n
	}
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return s + " TAG"
	case r >= 0xE0100 && r <= 0xE01EF || r >= 0xFE00 && r <= 0xFE0F:
		return s + " VARIATION SELECTOR"
	}
	return s
}

// text checks one model-visible string. what names it in messages ("tool
// read_file description").
func (k *checker) text(subj finding.Subject, ptr, what, s string) {
	if !suspicious(s) {
		return
	}
	var hidden []string
	var tags strings.Builder
	nHidden, ansi := 0, false
	var prev rune
	inFlag := false
	for i, r := range s {
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		inFlag = (prev == 0x1F3F4 || inFlag && prev >= 0xE0020 && prev < 0xE007F) && r >= 0xE0020 && r <= 0xE007F
		if r == 0x1B || r == 0x9B {
			ansi = true
		} else if isHidden(prev, r, next, inFlag) {
			if nHidden < 3 {
				hidden = append(hidden, fmt.Sprintf("%s at byte %d", runeLabel(r), i))
			}
			nHidden++
			if r >= 0xE0020 && r <= 0xE007E && tags.Len() < 80 {
				tags.WriteRune(r - 0xE0000) // tag characters mirror ASCII
			}
		}
		prev = r
	}
	if nHidden > 0 {
		more := ""
		if nHidden > len(hidden) {
			more = fmt.Sprintf(", and %d more", nHidden-len(hidden))
		}
		spelled := ""
		if tags.Len() > 0 {
			spelled = fmt.Sprintf("; the tag characters spell %q", tags.String())
		}
		k.add(rules.TextHiddenCharacters, subj, ptr,
			fmt.Sprintf("%s contains %d invisible character(s) the model reads but a reviewer does not see: %s%s%s", what, nHidden, strings.Join(hidden, ", "), more, spelled))
	}
	if ansi {
		k.add(rules.TextAnsiEscape, subj, ptr,
			fmt.Sprintf("%s contains ANSI terminal escape sequences, which can hide or rewrite text in a terminal", what))
	}
	if ms := injectionMarkers(s); len(ms) > 0 {
		q := make([]string, len(ms))
		for i, m := range ms {
			q[i] = strconv.Quote(oneLine(m))
		}
		k.add(rules.TextInjectionMarker, subj, ptr,
			fmt.Sprintf("%s contains text aimed at the model: %s", what, strings.Join(q, ", ")))
	}
}

// serverText checks the model-visible members of serverInfo.
func (k *checker) serverText(v any, ptr string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, key := range []string{"name", "title", "description"} {
		if s, ok := m[key].(string); ok {
			k.text(server, ptr+"/"+key, "serverInfo."+key, s)
		}
	}
}

// itemText checks every model-visible string of an item: its name, title
// and description, a tool's annotation title and every title and
// description inside its schemas, a prompt's argument descriptions.
func (k *checker) itemText(it *item) {
	obj := it.obj()
	for _, key := range []string{"name", "title", "description"} {
		if s, ok := obj[key].(string); ok && suspicious(s) {
			k.text(it.subj, "/"+key, it.label()+" "+key, s)
		}
	}
	switch it.sec.kind {
	case finding.KindTool:
		if a, ok := obj["annotations"].(map[string]any); ok {
			if s, ok := a["title"].(string); ok {
				k.text(it.subj, "/annotations/title", it.label()+" annotations.title", s)
			}
		}
		for _, field := range []string{"inputSchema", "outputSchema"} {
			k.schemaText(it, obj[field], []string{field}, 0)
		}
	case finding.KindPrompt:
		if args, ok := obj["arguments"].([]any); ok {
			for i, a := range args {
				am, ok := a.(map[string]any)
				if !ok {
					continue
				}
				for _, key := range []string{"name", "title", "description"} {
					if s, ok := am[key].(string); ok {
						at := []string{"arguments", strconv.Itoa(i), key}
						if suspicious(s) {
							k.text(it.subj, pointerOf(at), it.label()+" "+pathOf(at), s)
						}
					}
				}
			}
		}
	}
}

// schemaText checks titles and descriptions at any depth of a schema.
// Keys of "properties" are names, not keywords, and are walked through.
// at is a stack: it is extended for the call and restored after.
func (k *checker) schemaText(it *item, v any, at []string, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for key, val := range x { // order does not matter: findings are sorted
			at = append(at, key)
			if s, ok := val.(string); ok && (key == "description" || key == "title") {
				if suspicious(s) {
					k.text(it.subj, pointerOf(at), it.label()+" "+pathOf(at), s)
				}
			} else {
				switch key {
				case "const", "default", "enum", "examples":
					// values, not text written for the model
				default:
					k.schemaText(it, val, at, depth+1)
				}
			}
			at = at[:len(at)-1]
		}
	case []any:
		for i, e := range x {
			k.schemaText(it, e, append(at, strconv.Itoa(i)), depth+1)
		}
	}
}
