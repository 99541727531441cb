// Package action runs mcp-surface as a GitHub Actions step: it reads the
// step's inputs, runs the pipeline of pkg/check and delivers the verdict
// (files, outputs, job summary, annotations) and its publication through
// internal/app/github, or a bundle for a later publish job.
//
// Nothing here reads the process environment, the standard streams or the
// clock directly: the command line passes them in an Env, together with
// the few command-line conventions a run shares with the other commands
// (Tool), so that a run is reproducible in tests.
package action
