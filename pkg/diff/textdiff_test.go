package diff

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The edit script of diffTokens rebuilds both sides, and is minimal on
// small cases where the answer is known.
func TestDiffTokensRebuilds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", " ", "d"}
	gen := func() []string {
		n := r.IntN(30)
		out := make([]string, n)
		for i := range out {
			out[i] = alphabet[r.IntN(len(alphabet))]
		}
		return out
	}
	for range 2000 {
		a, b := gen(), gen()
		var ga, gb []string
		for _, e := range diffTokens(a, b) {
			if e.op != '+' {
				ga = append(ga, e.tok)
			}
			if e.op != '-' {
				gb = append(gb, e.tok)
			}
		}
		if strings.Join(ga, "") != strings.Join(a, "") || strings.Join(gb, "") != strings.Join(b, "") {
			t.Fatalf("diffTokens(%q, %q) does not rebuild the inputs", a, b)
		}
	}
	es := diffTokens(strings.Split("abcabba", ""), strings.Split("cbabac", ""))
	n := 0
	for _, e := range es {
		if e.op != ' ' {
			n++
		}
	}
	if n != 5 { // the classic example: D = 5
		t.Errorf("D = %d, want 5", n)
	}
}

func TestTextDiff(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"same", "same", ""},
		{"Look up a user by id.", "Look up a user by numeric id.", "Look up a user by {+numeric +}id."},
		{"", "new text", "{+new text+}"},
		{"old", "", "[-old-]"},
		{"zero\u200bwidth", "zero width", "zero[-<U+200B>-]{+ +}width"},
		{"one\ntwo\nthree\nfour\nfive\nsix", "one\ntwo\nthree\nFOUR\nfive\nsix", "  two\n  three\n- four\n+ FOUR\n  five\n  six"},
	} {
		if got := TextDiff(tc.a, tc.b); got != tc.want {
			t.Errorf("TextDiff(%q, %q) =\n%q\nwant\n%q", tc.a, tc.b, got, tc.want)
		}
	}
	long := strings.Repeat("word ", 5000)
	if got := TextDiff(long, long+"tail"); len(got) > maxTextDiff+40 {
		t.Errorf("unbounded diff: %d bytes", len(got))
	}
	// Beyond the edit budget the middle is replaced wholesale, still correct.
	x := strings.Repeat("a b ", 3000)
	y := strings.Repeat("b a ", 3000)
	if TextDiff(x, y) == "" {
		t.Error("empty diff for different texts")
	}
}

func TestParseTemplate(t *testing.T) {
	parts, err := parseTemplate("db://{table}{/id*}{?limit,offset:3}x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range parts {
		if p.expr {
			got = append(got, p.String())
		} else {
			got = append(got, p.literal)
		}
	}
	if strings.Join(got, "|") != "db://|{table}|{/id*}|{?limit,offset:3}|x" {
		t.Errorf("parts = %q", got)
	}
	for _, bad := range []string{"a{b", "a}b", "{}", "{=x}", "{x:0}", "{,}"} {
		if _, err := parseTemplate(bad); err == nil {
			t.Errorf("parseTemplate(%q) accepted", bad)
		}
	}
}

func TestReservedMetaKey(t *testing.T) {
	d := newDiffer(nil, nil, Options{})
	for k, want := range map[string]bool{
		"io.modelcontextprotocol/related-task": true, "dev.mcp/x": true, "modelcontextprotocol.io/x": true,
		"com.example.mcp/x": false, "ui/resourceUri": true, "ui": true, "openai/outputTemplate": true,
		"com.example/x": false, "deprecated": false,
	} {
		if got := d.reservedKey(k); got != want {
			t.Errorf("reservedKey(%q) = %v", k, got)
		}
	}
}

func TestSkeleton(t *testing.T) {
	for a, b := range map[string]string{"get_user": "GetUser", "get-user": "get.user", "get_usеr": "get_user", "fi1e": "file"} {
		if skeleton(a) != skeleton(b) {
			t.Errorf("skeleton(%q) = %q, skeleton(%q) = %q", a, skeleton(a), b, skeleton(b))
		}
	}
}
