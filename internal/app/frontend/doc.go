// Package frontend holds the conventions the two front ends (the command
// line, internal/app/cli, and the GitHub Action, internal/app/action)
// share, so that neither lends the other its internals: how text that may
// hold server output is made safe for a log, how a pipeline error is
// given the advice that fixes it (in flags or in inputs), and the
// environment variables every command reads (today's date, the snapshot
// size bound, the schema directory), and how a command that holds a
// capture or two snapshots bounds the process's memory; and where
// output goes: the report formats, output files ("-" for stdout), the
// raw frames of a capture and what it noticed.
//
// Each front end reads its own environment and passes what it read here
// (a Getenv function); nothing in this package reads the process's
// environment, clock or streams itself.
package frontend
