package initproject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
)

// releaseVersion matches the version of a release build.
var releaseVersion = lazyre.New(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$`)

// actionRepo is the action's repository.
const actionRepo = "mcp-surface/mcp-surface"

// actionRefWord is what --action-ref accepts: a tag, branch or commit.
var actionRefWord = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._/-]*$`)

// ActionRef is the action the workflow uses: at ref when one is given,
// else at version when that is a release, else at main. release reports
// whether it is a release's (or the given) reference; when it is not, the
// caller says so before writing anything.
func ActionRef(version, ref string) (uses string, release bool, err error) {
	if ref != "" {
		if !actionRefWord().MatchString(ref) || strings.Contains(ref, "..") {
			return "", false, fmt.Errorf("--action-ref %q: give a tag, branch or commit of %s (e.g. v1.2.3)", ref, actionRepo)
		}
		return actionRepo + "@" + ref, true, nil
	}
	// 0.0.0-dev.g<commit> is what an untagged checkout packs: no release.
	if releaseVersion().MatchString(version) && !strings.HasPrefix(version, "v0.0.0-") {
		return actionRepo + "@" + version, true, nil
	}
	return actionRepo + "@main", false, nil
}

// yamlPlain matches the values the workflow writes without quotes.
var yamlPlain = lazyre.New(`^[A-Za-z0-9_./][A-Za-z0-9_./ =@%+,-]*$`)

// yamlString is s as a YAML scalar: plain when that reads the same, else
// double-quoted (a JSON string is one).
func yamlString(s string) string {
	if yamlPlain().MatchString(s) && !strings.HasSuffix(s, " ") {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// WorkflowText is the workflow: on every pull request (and when its
// labels change: the accept label), the action builds the server,
// captures it and compares it with the snapshot.
func (p *Project) WorkflowText(cmd []string, snapshot, uses string) string {
	var b strings.Builder
	b.WriteString(`# mcp-surface: on every pull request, build the MCP server, capture what it
# advertises, validate it against the MCP schema and compare it with the
# committed snapshot; the verdict is a comment on the pull request.
# Written by mcp-surface init.
name: mcp-surface
on:
  pull_request:
    # labeled and unlabeled: the accept label re-runs the check
    types: [opened, synchronize, reopened, labeled, unlabeled]
permissions:
  contents: read
  pull-requests: write # the comment
`)
	serverDir := ""
	if p.Rel != "." {
		serverDir = p.Rel + "/"
	}
	b.WriteString(`jobs:
  surface:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # the base of the pull request, for the comparison
`)
	b.WriteString(strings.ReplaceAll(p.Eco.setup, "{dir}", serverDir))
	fmt.Fprintf(&b, "      - uses: %s\n        with:\n", uses)
	if p.Rel != "." {
		fmt.Fprintf(&b, "          working-directory: %s\n", yamlString(p.Rel))
	}
	fmt.Fprintf(&b, "          build: %s\n", yamlString(p.Eco.build))
	fmt.Fprintf(&b, "          command: %s\n", yamlString(cmdline.Join(cmd)))
	fmt.Fprintf(&b, "          snapshot: %s\n", yamlString(snapshot))
	return b.String()
}

var (
	preCommitRepo  = lazyre.New(`(?m)^( *)- repo:`)
	preCommitRepos = lazyre.New(`(?m)^repos:\s*$`)
)

// preCommitText is text with the snapshot hook appended at its
// indentation; "" when text names an mcp-surface hook already.
func (p *Project) preCommitText(text, snapshot string, cmd []string, uses string) (string, error) {
	if strings.Contains(text, actionRepo) {
		return "", nil
	}
	indent := "  "
	if m := preCommitRepo().FindStringSubmatch(text); m != nil {
		indent = m[1]
	} else if !preCommitRepos().MatchString(text) {
		return "", fmt.Errorf("init: .pre-commit-config.yaml has no repos: list to add the mcp-surface hook to; add it as docs/pre-commit.md shows")
	}
	// The hook runs from the repository's top.
	args := []string{"-o", joinRel(p.Rel, snapshot)}
	if p.Rel != "." {
		args = append(args, "--cwd", p.Rel)
	}
	args = append(append(args, "--"), cmd...)
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = yamlString(a)
	}
	rev := uses[strings.LastIndex(uses, "@")+1:]
	if !strings.HasSuffix(text, "\n") && text != "" {
		text += "\n"
	}
	text += fmt.Sprintf("%[1]s- repo: https://github.com/%[4]s\n%[1]s  rev: %[2]s\n%[1]s  hooks:\n%[1]s    - id: mcp-surface-snapshot-check\n%[1]s      args: [%[3]s]\n",
		indent, rev, strings.Join(quoted, ", "), actionRepo)
	return text, nil
}
