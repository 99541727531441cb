// Package cli turns command lines, action inputs and the environment into
// each package's options, runs the pipeline and maps the outcome onto the
// exit codes of DESIGN.md. It is the only package that reads the
// environment or the process's streams; everything it needs arrives through
// Run's arguments, so the CLI is tested in-process.
package cli

//go:generate go test -run ^TestActionDocs$ -update-action-docs .
