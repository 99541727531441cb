package cmdline

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{in: "node build/index.js --stdio", want: []string{"node", "build/index.js", "--stdio"}},
		{in: "  go run ./cmd/server  ", want: []string{"go", "run", "./cmd/server"}},
		{in: `python -m "my server" 'it''s'`, want: []string{"python", "-m", "my server", "its"}},
		{in: `npx -y 'a b' "c \"d\" \\ e" f\ g`, want: []string{"npx", "-y", "a b", `c "d" \ e`, "f g"}},
		{in: "uv run\n  server.py \\\n  --flag", want: []string{"uv", "run", "server.py", "--flag"}},
		{in: `echo '$HOME|x'`, want: []string{"echo", "$HOME|x"}},
		{in: `'' x`, want: []string{"", "x"}},
		{in: `node "a\$b" "c\` + "`" + `d" "e\nf"`, want: []string{"node", "a$b", "c`d", `e\nf`}},
		{in: "node \"a\\\nb\"", want: []string{"node", "ab"}},
		{in: "node\tsrv.js\r\n", want: []string{"node", "srv.js"}},
		{in: `1A=b node`, want: []string{"1A=b", "node"}},
		{in: `node A=b`, want: []string{"node", "A=b"}},
		{in: `=x node`, want: []string{"=x", "node"}},
		{in: "node a.js | tee log", err: "shell syntax"},
		{in: "node $APP", err: "shell syntax"},
		{in: `node "$APP"`, err: "expanded"},
		{in: "node \"`id`\"", err: "expanded"},
		{in: "a && b", err: "shell syntax"},
		{in: "a; b", err: "shell syntax"},
		{in: "a > log", err: "shell syntax"},
		{in: "(a)", err: "shell syntax"},
		{in: "PORT=3 node a.js", err: "env:"},
		{in: "_X= node a.js", err: "env:"},
		{in: `node 'a.js`, err: "unterminated ' quote"},
		{in: `node "a.js`, err: `unterminated " quote`},
		{in: `node a.js\`, err: "backslash"},
		{in: "   ", err: "empty"},
		{in: "", err: "empty"},
	} {
		got, err := Split(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestQuoteWithShell holds Quote against the shell that runs the build.
func TestQuoteWithShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	for _, s := range []string{"", "plain", "two words", "it's", "'", "''", `a\b`, "$HOME", "`id`", "a\nb", `"q"`, "*", "-n"} {
		out, err := exec.Command(sh, "-c", "printf '%s' "+Quote(s)).Output()
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if string(out) != s {
			t.Errorf("sh read %q back as %q", s, out)
		}
	}
}

// FuzzSplit: any text is split or refused, never a panic, and what is
// split survives quoting each word with Quote and splitting again.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"node build/index.js --stdio", `python -m "my server" 'it''s'`, `npx -y 'a b' "c \"d\" \\ e" f\ g`,
		"uv run\n  server.py \\\n  --flag", `'' x`, "a | b", `"$x"`, "A=b c", `'unterminated`, `x\`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := Split(s)
		if err != nil {
			return
		}
		if len(args) == 0 {
			t.Fatalf("%q: no words and no error", s)
		}
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = Quote(a)
		}
		again, err := Split(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("%q: words %q quoted do not split: %v", s, args, err)
		}
		if strings.Join(again, "\x00") != strings.Join(args, "\x00") {
			t.Fatalf("%q: %q, quoted and split again %q", s, args, again)
		}
		if utf8.ValidString(s) {
			for _, a := range args {
				if !utf8.ValidString(a) {
					t.Fatalf("%q: word %q is not UTF-8", s, a)
				}
			}
		}
	})
}
