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
	Args    string // the arguments of the snapshot command that rewrites the file, as the command line gives them
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
