package textscan

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Kind is a family of patterns; kinds combine as a set.
type Kind uint8

const (
	// Injection patterns match instructions aimed at the model.
	Injection Kind = 1 << iota
	// Sensitive patterns match references to credentials, secret files
	// and environment variables.
	Sensitive
)

// pattern is one built-in pattern.
//
// A precise pattern matches a phrase honest text has no reason to
// contain, so its mere presence is worth a warning; a loose one matches
// what honest text sometimes says ("system prompt", "password"), so it is
// only worth reporting when a change adds it.
//
// cues are lower-case substrings one of which every match of the pattern
// contains in ASCII text; a pattern runs only when the lower-cased text
// holds a cue, which keeps thousands of honest descriptions cheap. nil
// cues: the pattern always runs.
type pattern struct {
	kind    Kind
	precise bool
	cues    []string
	expr    string
}

// builtin is the one table of built-in patterns.
var builtin = []pattern{
	{Injection, true, []string{"ignore", "disregard", "forget", "override"},
		`(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|former|original|other)\s+(?:instructions?|prompts?|messages?|rules?|directions?|guidelines|context)`},
	{Injection, true, []string{"<"},
		`(?i)<\s*/?\s*(?:important|system|instructions?|secret|hidden|admin|sudo|override)\s*>|<\|\s*(?:im_start|im_end|system)\s*\|>`},
	{Injection, true, []string{"["},
		`(?i)\[\s*/?\s*(?:system|inst)\s*\]`},
	{Injection, true, []string{"user"},
		`(?i)\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|notify|alert|mention\s+(?:this\s+|it\s+)?to|reveal\s+(?:this\s+|it\s+)?to|show\s+(?:this\s+|it\s+)?to|let)\s+(?:the\s+)?user|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+)?user|\b(?:the\s+)?user\s+(?:must|should)\s*(?:not|n't)\s+(?:know|see|be\s+told|find\s+out)`},
	{Injection, true, []string{"reveal"},
		`(?i)\breveal\s+(?:your|the)\s+system\s+prompt`},
	{Injection, false, nil, `(?i)\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show|notify|alert)\b[^.\n]{0,40}\buser`},
	{Injection, false, nil, `(?i)\bbefore\s+(using|calling|invoking|running)\s+(any|this|the|other|another)\b[^.\n]{0,20}\btools?\b`},
	{Injection, false, nil, `(?i)\b(you\s+must|you\s+should|always|first)\s+(call|use|invoke|read|send|pass|include)\b[^.\n]{0,60}\b(tool|file|contents?|token|key|password|secret)s?\b`},
	{Injection, false, nil, `(?i)\bsystem\s+prompt\b`},
	{Injection, false, nil, `(?i)\b(new|updated|real|actual|secret)\s+instructions\b`},
	{Injection, false, nil, `(?i)\b(this\s+is\s+)?(very\s+)?important\s*[:!]`},
	{Injection, false, nil, `(?i)\bas\s+an?\s+(ai|assistant|language\s+model)\b`},

	// Directions to read or send a secret file: precise, and reported by
	// the lint as an instruction aimed at the model.
	{Sensitive, true, []string{"ssh", "id_rsa", "id_ed25519", "aws", "passwd", "shadow", ".env", "mcp.json", "npmrc", "netrc", "pgpass", "git-credentials", "docker/config", "private"},
		`(?i)\b(?:read|cat|open|send|upload|include|pass|attach|print|copy|forward|post)\b[^.\n]{0,80}(?:~/\.ssh|\.ssh/|\bid_rsa\b|\bid_ed25519\b|~/\.aws|\.aws/credentials|/etc/passwd|/etc/shadow|~/\.env\b|\s\.env\b|\bmcp\.json\b|\.npmrc\b|\.netrc\b|\.pgpass\b|\.git-credentials\b|\.docker/config\.json|\bprivate\s+key\b)`},
	{Sensitive, false, nil, `(?i)~/\.ssh\b|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b|\bknown_hosts\b`},
	{Sensitive, false, nil, `(?i)(^|[\s"'(/])\.env(\.[a-z]+)?\b`},
	{Sensitive, false, nil, `(?i)\.aws/credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.kube/config\b|\.docker/config\.json|/etc/(passwd|shadow)\b|\.pgpass\b`},
	{Sensitive, false, nil, `(?i)\b(api[_ -]?keys?|access[_ -]?tokens?|auth[_ -]?tokens?|secret[_ -]?keys?|private[_ -]?keys?|client[_ -]?secrets?|bearer\s+tokens?|session\s+(cookies?|tokens?)|passwords?|passphrases?|credentials?|seed\s+phrases?|mnemonics?)\b`},
	{Sensitive, false, nil, `\$\{?[A-Z][A-Z0-9_]*(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\}?`},
	{Sensitive, false, nil, `\b[A-Z][A-Z0-9]*_(API_KEY|TOKEN|SECRET|SECRET_KEY|PASSWORD|ACCESS_KEY)\b`},
	{Sensitive, false, nil, `(?i)\bprocess\.env\b|\bos\.environ\b|\bgetenv\b|\benvironment\s+variables?\b`},
}

// Defaults returns the expressions of the built-in patterns of kind k, in
// table order.
func Defaults(k Kind) []string {
	var out []string
	for _, p := range builtin {
		if p.kind&k != 0 {
			out = append(out, p.expr)
		}
	}
	return out
}

// compiled is a pattern ready to run.
type compiled struct {
	kind    Kind
	precise bool
	cues    []string
	re      *regexp.Regexp
}

// defaults is the built-in table compiled, on first use: every command
// links this package and most never scan text.
var defaults = sync.OnceValue(func() []compiled {
	out := make([]compiled, len(builtin))
	for i, p := range builtin {
		out[i] = compiled{kind: p.kind, precise: p.precise, cues: p.cues, re: regexp.MustCompile(p.expr)}
	}
	return out
})

// Patterns are the patterns a Scanner adds to or puts in place of the
// built-in ones, as configured (.mcp-surface.yaml text.injectionPatterns,
// text.sensitivePatterns, text.defaultPatterns). The zero value is the
// built-in set.
type Patterns struct {
	// Injection and Sensitive are RE2 regular expressions. An invalid one
	// is skipped: the configuration rejects it with its line number before
	// it gets here.
	Injection []string
	Sensitive []string
	// NoDefaults drops the built-in patterns.
	NoDefaults bool
}

func (p Patterns) zero() bool { return len(p.Injection) == 0 && len(p.Sensitive) == 0 && !p.NoDefaults }

// A Scanner finds the matches of the built-in and configured patterns in
// text. It is safe for concurrent use. The built-in patterns are compiled
// once per process, the configured ones once per Scanner, both on first
// use.
type Scanner struct {
	p     Patterns
	once  sync.Once
	extra []compiled
}

var defaultScanner = &Scanner{}

// New returns a Scanner for p. Callers keep one for a whole run (a
// validation, a diff) so that configured patterns are compiled once.
func New(p Patterns) *Scanner {
	if p.zero() {
		return defaultScanner
	}
	return &Scanner{p: p}
}

func (sc *Scanner) configured() []compiled {
	sc.once.Do(func() {
		add := func(k Kind, exprs []string) {
			for _, e := range exprs {
				if re, err := regexp.Compile(e); err == nil {
					sc.extra = append(sc.extra, compiled{kind: k, precise: true, re: re})
				}
			}
		}
		add(Injection, sc.p.Injection)
		add(Sensitive, sc.p.Sensitive)
	})
	return sc.extra
}

// MayFind is the fast pre-check of the lint: false means that neither
// HiddenRunes(s) nor Find(s, kinds, true, n) has anything to report,
// whatever kinds, because s is printable ASCII without a cue word of any
// precise built-in pattern and the Scanner has no configured patterns.
// One pass over s, no allocation for text up to 512 bytes.
func (sc *Scanner) MayFind(s string) bool {
	if len(sc.configured()) > 0 {
		return true
	}
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
	if sc.p.NoDefaults {
		return false
	}
	for _, p := range defaults() {
		if !p.precise {
			continue
		}
		if p.cues == nil {
			return true
		}
		for _, c := range p.cues {
			if bytes.Contains(lower, []byte(c)) {
				return true
			}
		}
	}
	return false
}

// cued reports whether lower holds one of cues (nil cues: always).
func cued(cues []string, lower string) bool {
	if cues == nil {
		return true
	}
	for _, c := range cues {
		if strings.Contains(lower, c) {
			return true
		}
	}
	return false
}

// Match is one match of a pattern.
type Match struct {
	At   int    // byte offset in the text
	Text string // the matched text
	Kind Kind
}

// Find returns the matches in s of the patterns of the kinds asked for, in
// text order (ties in table order, built-in before configured), at most
// perPattern per pattern (<= 0: all). With preciseOnly set, loose built-in
// patterns do not run (the lint); configured patterns always do.
func (sc *Scanner) Find(s string, kinds Kind, preciseOnly bool, perPattern int) []Match {
	if perPattern <= 0 {
		perPattern = -1
	}
	var lower string
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			// Case folding beyond ASCII (the Kelvin sign, the long s) can
			// match a pattern that lower-cased cues would miss: run all.
			ascii = false
			break
		}
	}
	var out []Match
	run := func(p compiled) {
		if p.kind&kinds == 0 || preciseOnly && !p.precise {
			return
		}
		if ascii && p.cues != nil {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			if !cued(p.cues, lower) {
				return
			}
		}
		for _, loc := range p.re.FindAllStringIndex(s, perPattern) {
			out = append(out, Match{At: loc[0], Text: s[loc[0]:loc[1]], Kind: p.kind})
		}
	}
	if !sc.p.NoDefaults {
		for _, p := range defaults() {
			run(p)
		}
	}
	for _, p := range sc.configured() {
		run(p)
	}
	slices.SortStableFunc(out, func(a, b Match) int { return a.At - b.At })
	return out
}
