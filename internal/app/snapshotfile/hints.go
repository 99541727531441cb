package snapshotfile

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// Hints are what snapshot --check says around the changes, in the
// reader's terms: the command that runs mcp-surface (CLICommand), what
// rewrites the snapshot when a test helper runs the check (--update-hint),
// and whether every change is shown.
type Hints struct {
	CLI     string // "mcp-surface", "npx mcp-surface"
	Args    string // the arguments of the snapshot command that rewrites the file (RerunHint)
	Update  string // --update-hint: what rewrites it, in a test runner's terms
	Verbose bool
}

// rewrite is the sentence that says how to rewrite the snapshot at path.
func (h Hints) rewrite(path string) string {
	if h.Update != "" {
		return report.LogLine(h.Update, report.MaxMessage) + " and commit " + cmdline.Word(path)
	}
	return "run `" + h.CLI + " snapshot" + h.Args + "` and commit " + cmdline.Word(path)
}

// CLICommand is how the reader runs mcp-surface: the launcher that
// started this binary says so in frontend.CLIEnv ("npx mcp-surface");
// else "mcp-surface".
func CLICommand(getenv func(string) string) string {
	if c := strings.TrimSpace(getenv(frontend.CLIEnv)); c != "" {
		return report.LogLine(c, report.MaxName)
	}
	return "mcp-surface"
}

// DisplayPath is path as the reader names it: relative to the working
// directory when it is inside it.
func DisplayPath(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// RerunHint repeats the snapshot command's arguments without --check and
// the flags that only change what --check prints, and without --jobs,
// which changes nothing in the files (and so the hint is the same
// whatever it is). An -o naming an absolute path inside the working
// directory is given as the reader names it, shown.
func RerunHint(args []string, shown string) string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, "--", cmdline.Join(args[i+1:]))
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			out = append(out, cmdline.Word(a))
			continue
		}
		switch name {
		case "check", "verbose":
			continue
		case "jobs", "update-hint":
			if !hasValue {
				i++ // and its value
			}
			continue
		case "o":
			if !hasValue {
				i++
			}
			out = append(out, "-o", cmdline.Word(shown))
			continue
		}
		out = append(out, cmdline.Word(a))
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}
