package cli

import (
	"context"
	"os"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/action"
)

const actionUsage = `

Runs the whole pipeline (see ` + "`mcp-surface check`" + `) as a GitHub Actions step and
publishes the verdict. Everything comes from the runner's environment: the
inputs of action.yml as INPUT_<NAME> (upper case, hyphens kept, e.g.
INPUT_FAIL-ON), the event payload (GITHUB_EVENT_PATH), GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY and GITHUB_API_URL. The same binary serves the composite
action of this repository and any container or JavaScript wrapper.

Modes (input mode):
  full     analyze and publish in one job (same-repository pull requests, push)
  analyze  analyze only; on a pull request write a bundle for a later publish
  publish  in a workflow_run job: read the bundle as untrusted data, verify
           it against the event and publish it

Exit status: full and analyze exit with the verdict (0, or 1 for findings at
or above fail-on) and 2 when the tool could not do its job; publish exits 0
unless the bundle is missing or invalid (2). Publishing failures are
warnings: they never change the exit status.

See docs/action.md for every input and output.`

// runAction is the action command: internal/app/action does the run,
// with this process's environment.
func runAction(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("action", actionUsage, env.Stderr)
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("the action takes no arguments: its inputs are INPUT_* variables (see docs/action.md)")
	}
	return action.Run(ctx, &action.Env{
		Stdout: env.Stdout, Stderr: env.Stderr, Getenv: env.Getenv, Environ: env.Environ,
		Getwd: os.Getwd, Clock: time.Now,
	})
}
