// Package initproject is what `mcp-surface init` knows about a project:
// which ecosystem builds it (package.json, pyproject.toml or go.mod, in
// that order), which command starts its server, and the files that guard
// it from then on: the pull request workflow, the package.json script
// that refreshes the snapshot and the pre-commit hook. The command line
// (internal/app/cli) maps init's flags onto it and writes the snapshot.
//
// The contracts:
//
//   - Nothing is written before everything is checked: Project.Conflicts
//     names what is already there, and Write only writes.
//   - The command the workflow runs is one a runner can start: Python
//     projects that use uv (uv.lock, or a [tool.uv] table) run it with
//     `uv run`; others run the virtual environment's script
//     (.venv/bin/NAME) or `.venv/bin/python -m PKG`. A project script
//     given by its bare name, which is on no runner's PATH, is rewritten
//     so; a missing tool (uv, the virtual environment) is an error of one
//     line that says what to install.
//   - The pull request workflow also runs on the labeled and unlabeled
//     events, so that the accept label the report recommends re-runs the
//     check.
//   - The action's reference is this binary's release tag; a build that is
//     no release says so before anything is written and uses main, unless
//     a reference is given (ActionRef).
//   - package.json is edited with internal/base/jsonedit: every byte but
//     the script's stays.
package initproject
