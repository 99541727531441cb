// Package actionenv is everything mcp-surface knows about the GitHub Actions
// runner: action inputs, step outputs, the job summary, workflow commands
// (masking, logging, annotations), the event that started the run and the
// variables that must not reach the pull request's code.
//
// Nothing here reads the process environment: an Env is built from a getter
// (os.Getenv in the CLI, a map in tests) and a writer for workflow commands
// (the process's stdout in the CLI). Files named by the environment
// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH) are opened only
// when a method needs them.
//
// Why not a ready-made toolkit: the obvious one writes outputs with a fixed
// heredoc delimiter (a value containing it injects a second output), panics
// when GITHUB_OUTPUT is unset, treats every log message as a format string,
// exits from Fatal without running deferred cleanup, and hands the event
// payload over as a map of float64 numbers. This package fixes each of
// those:
//
//   - SetOutput writes name<<DELIMITER with a fresh random delimiter per
//     value and refuses a value that contains it; an unset GITHUB_OUTPUT is
//     an error wrapping ErrNotSet.
//   - Logging methods take a message, never a format string (the f variants
//     take a constant format checked by go vet); messages are escaped as
//     workflow-command data, and plain log text that could be read as a
//     workflow command is wrapped in ::stop-commands:: with a random token.
//   - Nothing exits: errors are returned and the caller decides.
//   - Events are decoded into typed structs whose numbers are ints.
//   - AppendSummary keeps the step's summary within GitHub's 1 MiB limit,
//     truncating with a note; annotations beyond the 10 per level that
//     GitHub shows per step are written as plain log lines and counted.
//
// A Scrub is what the commands started for the pull request's code (the
// build, the server) may not inherit from the step: the runner's
// credentials (RunnerCredentials), the inputs and anything holding the
// token, but for names passed on purpose (the pass-env input). It is a
// pure function of the environment it is given.
//
// Untrusted text (tool names and descriptions come from the pull request's
// author) may be passed to every method as data; it is never interpreted.
package actionenv
