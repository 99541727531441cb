package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// guidance is what turns a failing check green, for the report's "What to
// do": the acknowledgement entries to paste, the pull request label that
// accepts the breaking changes, and each server's snapshot refresh
// command. The renderer takes it as data; nothing in it is markdown.
type guidance struct {
	// AcceptLabel is the label that accepts breaking changes, and
	// LabelApplied whether the pull request carries it; Accepted is the
	// number of breaking changes it acknowledged.
	AcceptLabel  string
	LabelApplied bool
	Accepted     int
	// Acknowledgements is YAML for .mcp-surface.yaml: an entry for every
	// unacknowledged finding at or above fail-on (a comment names the
	// server when there are several); empty when nothing fails.
	Acknowledgements []byte
	// Refresh is one snapshot refresh command per server, in the order of
	// the servers.
	Refresh []refresh
}

// refresh is the command that rewrites one server's committed snapshot,
// run from the directory the check ran in.
type refresh struct {
	Server, Snapshot, Command string
}

func guidanceOf(res *check.Result, failOn rules.Level, label string, applied bool, refreshes []refresh) *guidance {
	return &guidance{
		AcceptLabel: label, LabelApplied: applied, Accepted: res.Accepted(),
		Acknowledgements: res.Acknowledgements(failOn), Refresh: refreshes,
	}
}

// refreshCommands are the snapshot refresh commands of the action's
// servers: the command or url input as `snapshot` takes it, or `snapshot
// --server NAME` for a server of the servers: list, each from the working
// directory.
func (a *actionRun) refreshCommands(servers []check.Server, relWork string) []refresh {
	c := a.cfg
	var out []refresh
	for _, s := range servers {
		var words []string
		switch {
		case c.Command != "" || c.URL != "":
			words = []string{"mcp-surface", "snapshot", "-o", c.Snapshot}
			if c.URL != "" {
				words = append(words, "--url", c.URL)
			} else if c.Shell {
				words = append(words, "--shell", "--", c.Command)
			} else {
				words = append(words, "--")
				words = append(words, s.Command...)
			}
		default:
			words = []string{"mcp-surface", "snapshot"}
			if c.Config != "" && filepath.Clean(c.Config) != config.DefaultFile {
				words = append(words, "--config", c.Config)
			}
			if len(servers) > 1 || c.Server != "" {
				words = append(words, "--server", s.Name)
			}
		}
		cmd := joinWords(words)
		if relWork != "." && relWork != "" {
			cmd = "cd " + shellWord(relWork) + " && " + cmd
		}
		out = append(out, refresh{Server: s.Name, Snapshot: s.Snapshot, Command: cmd})
	}
	return out
}

// joinWords is a command line for /bin/sh: a word is quoted only when
// the shell would read it otherwise, so the common command reads plainly.
func joinWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellWord(w)
	}
	return strings.Join(q, " ")
}

func shellWord(w string) string {
	if w == "" {
		return cmdline.Quote(w)
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@%+,", r)) {
			return cmdline.Quote(w)
		}
	}
	return w
}

// markdown says the guidance in markdown, for the comment and the
// job summary until the report's own "What to do" takes the guidance as
// data; every value is escaped.
func (g *guidance) markdown() string {
	if g == nil {
		return ""
	}
	var b strings.Builder
	if g.LabelApplied && g.Accepted > 0 {
		fmt.Fprintf(&b, "\n**Accepted by label:** %d breaking change(s) are acknowledged for this pull request by the label %s.\n",
			g.Accepted, report.Code(g.AcceptLabel, report.MaxName))
	}
	if len(g.Acknowledgements) == 0 {
		return b.String()
	}
	b.WriteString("\n**To turn the check green** (when the change is intended):\n\n")
	fmt.Fprintf(&b, "- add the label %s to this pull request (the workflow needs the `labeled` type of the `pull_request` trigger), or\n", report.Code(g.AcceptLabel, report.MaxName))
	n := strings.Count(string(g.Acknowledgements), "\n  - rule: ")
	fmt.Fprintf(&b, "- paste these entries into `.mcp-surface.yaml` and give each a reason:\n\n  <details><summary>%d acknowledgement(s) for <code>.mcp-surface.yaml</code></summary>\n\n", n)
	b.WriteString(indentLines(report.CodeBlock(string(g.Acknowledgements), "yaml")+"\n", "  "))
	b.WriteString("\n  </details>\n")
	if len(g.Refresh) > 0 {
		b.WriteString("\nThen refresh the committed snapshot:\n\n")
		for _, r := range g.Refresh {
			line := r.Command
			if r.Server != "" {
				line = r.Command + "   # " + r.Server + ": " + r.Snapshot
			} else if r.Snapshot != "" {
				line = r.Command + "   # writes " + r.Snapshot
			}
			b.WriteString(indentLines(report.CodeBlock(line, "sh")+"\n", "  "))
		}
	}
	return b.String()
}

func indentLines(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" && l != "\n" {
			b.WriteString(prefix)
		}
		b.WriteString(l)
	}
	return b.String()
}
