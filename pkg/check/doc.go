// Package check runs the whole pipeline for one or several servers: it
// captures each server live (the head), validates what it sent against
// the published MCP schema and lints it, runs its declared probes, finds
// its baseline (none, a snapshot file, the snapshot committed at a git
// ref, or the base built and captured in a temporary worktree), compares
// the two snapshots and applies the policy of .mcp-surface.yaml.
//
// Run returns findings and one Outcome per server, never an exit code:
// what counts as failing is the caller's choice (the command line maps
// --fail-on onto Result.Fails). The parts of the pipeline that other
// commands run alone share its options and its one policy step
// (pkg/policy, Policy.Apply): Validate and ValidateSnapshot (spec and lint),
// Probe (declared probes), Diff (two snapshots), Captures (the raw
// captures). Everything they need arrives in Options: nothing here reads
// the environment, the clock or the process's streams, so a Go program
// can embed the pipeline and a test can run it in-process.
//
// Two steps keep the report about the change. A capture note that the
// base shows too (the server's handshake fallback, its stdout noise) is
// lowered to info: it is the server's habit, not the pull request's doing.
// And Options.AcceptBreaking acknowledges the breaking changes of a run
// whose break is intended (the action's accept label); they stay in the
// report, marked, and Result.Acknowledgements gives the entries that would
// do the same from .mcp-surface.yaml.
package check
