// Package cli turns command lines and the environment into each package's
// options, runs the pipeline and maps the outcome onto the exit codes the
// README lists (0, 1 for findings, 2 when the tool could not do its job).
// It is the only package that reads the environment or the process's
// streams (the action command hands them to internal/app/action);
// everything it needs arrives through Run's arguments, so the CLI is
// tested in-process.
package cli
