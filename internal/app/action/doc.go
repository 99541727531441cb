// Package action runs mcp-surface as a GitHub Actions step: it reads the
// step's inputs, runs the pipeline of pkg/check and delivers the verdict
// (files, outputs, job summary, annotations) and its publication through
// internal/app/github, or a bundle for a later publish job.
//
// Nothing here reads the process environment, the standard streams or the
// clock directly: the command line passes them in an Env, so that a run is
// reproducible in tests. What a run shares with the other commands (log
// escaping, error advice, the MCP_SURFACE_* variables) is in
// internal/app/frontend; the command line lends it nothing else.
package action

//go:generate go test -run ^TestActionDocs$ -update-action-docs .
