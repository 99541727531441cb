package diff

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// TextOptions configure the detectors of model-visible text (the text-*
// rules: injection markers, hidden characters, sensitive references). The
// zero value uses the defaults.
type TextOptions struct {
	// InjectionPatterns and SensitivePatterns are RE2 regular expressions
	// added to the built-in ones (DefaultInjectionPatterns,
	// DefaultSensitivePatterns); the lint takes the same ones
	// (spec.LintOptions). Invalid patterns are skipped here; pkg/config
	// rejects them with a line number.
	InjectionPatterns []string
	SensitivePatterns []string
	// NoDefaultPatterns drops the built-in injection and sensitive patterns.
	NoDefaultPatterns bool
	// LengthSpikeRatio (default 2) and LengthSpikeMinChars (default 200):
	// text-length-spike fires when a text grew by at least MinChars
	// characters and to at least Ratio times its base length.
	LengthSpikeRatio    float64
	LengthSpikeMinChars int
	// EncodedMinLength is the shortest base64/hex run reported (default 40).
	EncodedMinLength int
}

// DefaultInjectionPatterns and DefaultSensitivePatterns are the built-in
// patterns: the one set the lint (pkg/spec) uses too, which reports the
// precise ones wherever they appear. Changing these slices changes nothing:
// they are a copy for reading.
var (
	DefaultInjectionPatterns = textscan.Defaults(textscan.Injection)
	DefaultSensitivePatterns = textscan.Defaults(textscan.Sensitive)
)

var (
	urlRE      = lazyre.New(`(?i)\b(?:https?|ftp|wss?|file|data|javascript)://[^\s<>"'` + "`" + `)\]}]+`)
	domainRE   = lazyre.New(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|ai|dev|app|xyz|ru|cn|co|me|sh|info|biz|tk|top|site|online|click|link|cloud|so|gg|ly|to|cc|ws|su|pw)\b`)
	base64RE   = lazyre.New(`[A-Za-z0-9+/]{20,}={0,2}`)
	hexRE      = lazyre.New(`\b(?:0x)?[0-9a-fA-F]{20,}\b`)
	percentRE  = lazyre.New(`(?:%[0-9A-Fa-f]{2}){6,}`)
	escapeRE   = lazyre.New(`(?:\\x[0-9A-Fa-f]{2}){6,}|(?:\\u[0-9A-Fa-f]{4}){4,}`)
	identRE    = lazyre.New(`[A-Za-z0-9_.\-]+`)
	quotedRE   = lazyre.New("[`'\"]([A-Za-z0-9_.\\-]+)[`'\"]")
	crossRefRE = lazyre.New(`(?i)\b(instead\s+of\s+(using|calling)|rather\s+than\s+(using|calling)|(other|another|all\s+other)\s+(tools?|servers?|mcp\s+servers?)|when\s+(using|calling)\s+(the\s+)?\S+\s+tool|(call|use|invoke)\s+the\s+\S+\s+tool)\b`)
)

// textDetectors is TextOptions resolved.
type textDetectors struct {
	scan       *textscan.Scanner
	ratio      float64
	minChars   int
	encodedMin int
}

func compileText(o TextOptions) *textDetectors {
	t := &textDetectors{ratio: o.LengthSpikeRatio, minChars: o.LengthSpikeMinChars, encodedMin: o.EncodedMinLength}
	if t.ratio <= 0 {
		t.ratio = 2
	}
	if t.minChars <= 0 {
		t.minChars = 200
	}
	if t.encodedMin <= 0 {
		t.encodedMin = 40
	}
	t.scan = textscan.New(textscan.Patterns{Injection: o.InjectionPatterns, Sensitive: o.SensitivePatterns, NoDefaults: o.NoDefaultPatterns})
	return t
}

// maxSpans bounds the spans one finding carries.
const maxSpans = 10

// scanText runs the text detectors on the text a field gains. b and
// h are the raw base and head values (nil when absent); existing is false
// for the fields of a new item (no length spike there).
func (d *differ) scanText(subj finding.Subject, p string, b, h json.RawMessage, existing bool) {
	hs, ok := stringValue(h)
	if !ok || hs == "" {
		return
	}
	bs, _ := stringValue(b)
	d.scanStrings(subj, p, bs, hs, existing)
}

// scanStrings is scanText on the decoded texts (bs is "" when base has
// none; hs is not empty).
func (d *differ) scanStrings(subj finding.Subject, p, bs, hs string, existing bool) {
	if bs == hs {
		return
	}
	t := d.text

	// Hidden characters, counted per code point.
	if codes, span, ok := hiddenAdded(bs, hs); ok {
		d.emit(rules.TextHiddenCharactersAdded, subj, p, "invisible characters added: "+codes, nil, jsonString(span))
	}
	d.spans(rules.TextInjectionMarkerAdded, "instructions aimed at the model added", subj, p,
		t.matches(textscan.Injection, bs), t.matches(textscan.Injection, hs))
	d.spans(rules.TextSensitiveReferenceAdded, "reference to credentials or secrets added", subj, p,
		t.matches(textscan.Sensitive, bs), t.matches(textscan.Sensitive, hs))
	d.spans(rules.TextEncodedPayloadAdded, "encoded payload added", subj, p,
		t.encodedSpans(bs), t.encodedSpans(hs))
	d.spans(rules.TextUrlAdded, "URL or domain added", subj, p, urlSpans(bs), urlSpans(hs))
	d.spans(rules.TextCrossToolReferenceAdded, "reference to another tool added", subj, p,
		d.crossRefs(subj, bs), d.crossRefs(subj, hs))

	if existing {
		bl, hl := utf8.RuneCountInString(bs), utf8.RuneCountInString(hs)
		if hl-bl >= t.minChars && float64(hl) >= t.ratio*float64(bl) {
			d.emit(rules.TextLengthSpike, subj, p,
				fmt.Sprintf("text grew from %d to %d characters", bl, hl),
				json.RawMessage(strconv.Itoa(bl)), json.RawMessage(strconv.Itoa(hl)))
		}
	}
}

// spans reports, as one finding per field, the spans of head that base
// does not have (compared as a multiset of normalized spans). after is the
// sorted list of at most maxSpans spans.
func (d *differ) spans(rule, what string, subj finding.Subject, p string, base, head []string) {
	have := map[string]int{}
	for _, s := range base {
		have[normSpan(s)]++
	}
	var fresh []string
	seen := map[string]bool{}
	for _, s := range head {
		n := normSpan(s)
		if have[n] > 0 {
			have[n]--
			continue
		}
		if !seen[n] {
			seen[n] = true
			fresh = append(fresh, s)
		}
	}
	if len(fresh) == 0 {
		return
	}
	var quoted []string
	list := make([]any, 0, min(len(fresh), maxSpans))
	for i, s := range fresh {
		if i == maxSpans {
			break
		}
		list = append(list, bound(visible(s), 200))
		if i < 3 {
			quoted = append(quoted, quote(s))
		}
	}
	msg := what + ": " + strings.Join(quoted, ", ")
	if len(fresh) > 3 {
		msg += fmt.Sprintf(" and %d more", len(fresh)-3)
	}
	d.emit(rule, subj, p, msg, nil, canon(list))
}

func normSpan(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func bound(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// matches returns the matches of every pattern of kind k, precise and
// loose (only what a change adds is reported), in text order.
func (t *textDetectors) matches(k textscan.Kind, s string) []string {
	ms := t.scan.Find(s, k, false, 20)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Text
	}
	return out
}

func urlSpans(s string) []string {
	out := urlRE().FindAllString(s, 20)
	rest := urlRE().ReplaceAllString(s, " ")
	for _, m := range domainRE().FindAllString(rest, 20) {
		out = append(out, strings.ToLower(m))
	}
	return out
}

func (t *textDetectors) encodedSpans(s string) []string {
	var out []string
	rest := urlRE().ReplaceAllString(s, " ")
	for _, m := range base64RE().FindAllString(rest, 20) {
		if len(m) >= t.encodedMin && looksBase64(m) {
			out = append(out, m)
		}
	}
	for _, m := range hexRE().FindAllString(rest, 20) {
		if len(strings.TrimPrefix(m, "0x")) >= t.encodedMin {
			out = append(out, m)
		}
	}
	out = append(out, percentRE().FindAllString(s, 20)...)
	out = append(out, escapeRE().FindAllString(s, 20)...)
	return out
}

// looksBase64 rejects long words: a base64 run mixes cases and has a digit
// or + or /. A run that reads as words joined by / or + (a list of states,
// "Open/Closed/Merged/Draft", or a path) is prose, not a payload: random
// base64 switches case every few characters and puts digits anywhere.
func looksBase64(s string) bool {
	var upper, lower, other bool
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= '0' && r <= '9', r == '+', r == '/':
			other = true
		}
	}
	return upper && lower && other && !wordList(strings.TrimRight(s, "="))
}

// wordList: every piece of s between / and + separators is a word.
func wordList(s string) bool {
	n := 0
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '+' }) {
		if !proseWord(w) {
			return false
		}
		n++
	}
	return n > 0
}

// proseWord: letters cased as people write them (lower, UPPER, Capitalized
// or camelCase with humps of at least two lower-case letters), then at
// most three digits.
func proseWord(w string) bool {
	letters := strings.TrimRight(w, "0123456789")
	if letters == "" || len(letters) > 40 || len(w)-len(letters) > 3 {
		return false
	}
	allUpper := true
	for i := 0; i < len(letters); i++ {
		if letters[i] < 'A' || letters[i] > 'Z' {
			allUpper = false
			break
		}
	}
	if allUpper {
		return true
	}
	// humps: an optional capital, then lower-case letters
	for i := 0; i < len(letters); {
		start := i
		if letters[i] >= 'A' && letters[i] <= 'Z' {
			i++
		}
		j := i
		for i < len(letters) && letters[i] >= 'a' && letters[i] <= 'z' {
			i++
		}
		if i == j || (start > 0 && i-j < 2) {
			return false
		}
	}
	return true
}

// crossRefs returns the other tools and prompts a text mentions, and
// phrases that steer the model between tools.
func (d *differ) crossRefs(subj finding.Subject, s string) []string {
	if s == "" {
		return nil
	}
	names := d.headNames()
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != subj.Name && names[n] && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, tok := range identRE().FindAllString(s, -1) {
		tok = strings.Trim(tok, ".-")
		if identLike(tok) {
			add(tok)
		}
	}
	for _, m := range quotedRE().FindAllStringSubmatch(s, -1) {
		add(m[1])
	}
	out = append(out, crossRefRE().FindAllString(s, 10)...)
	return out
}

// identLike reports whether a word looks like an identifier rather than
// prose: it has a separator, a digit or an inner capital letter.
func identLike(s string) bool {
	if strings.ContainsAny(s, "_.-0123456789") {
		return true
	}
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// hiddenAdded reports the hidden characters head has more of than base:
// codes lists code points and counts (and the ASCII text spelled by Unicode
// tag characters), span adds an excerpt around the first one.
func hiddenAdded(b, h string) (codes, span string, ok bool) {
	count := func(hs []textscan.Rune) map[rune]int {
		m := map[rune]int{}
		for _, x := range hs {
			m[x.R]++
		}
		return m
	}
	hh := textscan.HiddenRunes(h)
	bc, hc := count(textscan.HiddenRunes(b)), count(hh)
	var added []rune
	for r, n := range hc {
		if n > bc[r] {
			added = append(added, r)
		}
	}
	if len(added) == 0 {
		return "", "", false
	}
	slices.Sort(added)
	var parts []string
	for i, r := range added {
		if i == 8 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("U+%04X×%d", r, hc[r]-bc[r]))
	}
	codes = strings.Join(parts, " ")
	if tags := textscan.TagText(hh, 0); tags != "" {
		codes += "; tag characters spell " + strconv.Quote(bound(tags, 120))
	}
	span = codes
	for _, x := range hh {
		if slices.Contains(added, x.R) {
			i := utf8.RuneCountInString(h[:x.At])
			rs := []rune(h)
			lo, hi := max(0, i-20), min(len(rs), i+20)
			span += "; in " + strconv.Quote(visible(string(rs[lo:hi])))
			break
		}
	}
	return codes, span, true
}

// visible renders hidden characters as <U+XXXX> (keeping tab and newline).
func visible(s string) string { return textscan.Visible(s, textscan.CodePoints) }

// scanItemTexts scans every model-visible text of an item against its base
// version (nil for a new item).
func (d *differ) scanItemTexts(subj finding.Subject, b, h object) {
	existing := b != nil
	for _, k := range []string{"title", "description"} {
		d.scanText(subj, "/"+k, b.get(k), h.get(k), existing)
	}
	d.scanText(subj, "/annotations/title", b.obj("annotations").get("title"), h.obj("annotations").get("title"), existing)
	for _, k := range []string{"inputSchema", "outputSchema"} {
		d.scanSchemaTexts(subj, k, b.get(k), h.get(k), existing)
	}
	for i, a := range parseArray(h.get("arguments")) {
		d.scanArgTexts(subj, argPtr(i), nil, parseObject(a))
	}
}

func (d *differ) scanArgTexts(subj finding.Subject, p string, b, h object) {
	for _, k := range []string{"title", "description"} {
		d.scanText(subj, p+"/"+k, b.get(k), h.get(k), b != nil)
	}
}

// scanSchemaTexts scans the title and description strings of a schema.
// Text the walk could not reach (a schema nested deeper than its bound, or
// one that does not decode) is reported where the walk stopped: unread
// text is never passed as clean.
func (d *differ) scanSchemaTexts(subj finding.Subject, key string, b, h json.RawMessage, existing bool) {
	if isNull(h) {
		return
	}
	ht, cut, why := schemaTexts(d.schemas, h, "/"+key)
	if cut != "" {
		d.emit(rules.TextInjectionMarkerAdded, subj, cut,
			fmt.Sprintf("%s was not scanned whole: %s; the text there was not checked for instructions aimed at the model", key, why), nil, nil)
	}
	if len(ht) == 0 {
		return
	}
	bt, _, _ := schemaTexts(d.schemas, b, "/"+key)
	for _, p := range slices.Sorted(maps.Keys(ht)) {
		// Valid UTF-8 survives the trip through JSON unchanged: scanned as
		// decoded, without encoding each text to decode it again.
		bs, inBase := bt[p]
		if hs := ht[p]; utf8.ValidString(hs) && (!inBase || utf8.ValidString(bs)) {
			if hs != "" {
				d.scanStrings(subj, p, bs, hs, existing)
			}
			continue
		}
		var bv json.RawMessage
		if s, ok := bt[p]; ok {
			bv = jsonString(s)
		}
		d.scanText(subj, p, bv, jsonString(ht[p]), existing)
	}
}

// schemaTexts collects string-valued title and description members of a
// schema by pointer (textscan.WalkSchema). cut is the pointer of the first
// place the walk could not read, "" when it read everything, and why says
// what stopped it. The schema is decoded through the diff's cache, which
// the schema comparison and the witness search read it from too.
func schemaTexts(cache *witness.Cache, raw json.RawMessage, root string) (texts map[string]string, cut, why string) {
	if isNull(raw) {
		return nil, "", ""
	}
	v, err := cache.Decode(raw)
	if err != nil {
		return nil, root, err.Error()
	}
	out := map[string]string{}
	c := textscan.WalkSchema(v, func(p []string, s string) {
		out[ptr(root, p...)] = s
	})
	if c != nil {
		cut = ptr(root, c.Path...)
		why = fmt.Sprintf("it nests deeper than %d levels in %d place(s), the first at this pointer", textscan.MaxDepth, c.Count)
	}
	return out, cut, why
}

// NamesIn returns the names that text mentions the way the
// text-cross-tool-reference-added rule reads a mention: a word shaped like
// an identifier (a separator, a digit or an inner capital), or a quoted
// name, for which known is true. Each name appears once, in the order of
// its first mention. internal/app/lock reads it across servers: a description that
// names another server's tool.
func NamesIn(text string, known func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if known(n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, tok := range identRE().FindAllString(text, -1) {
		if tok = strings.Trim(tok, ".-"); identLike(tok) {
			add(tok)
		}
	}
	for _, m := range quotedRE().FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	return out
}
