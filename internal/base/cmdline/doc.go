// Package cmdline turns the command line a user typed (the action's
// command input) into an argv to run without a shell, and quotes a word
// for the one place where a shell does run it (the build).
//
// Split knows the quoting of a POSIX shell and nothing else: no variable,
// glob, tilde or command expansion. Rather than guess what a shell would
// have done, it refuses characters a shell would interpret outside quotes,
// and says to run the command with a shell instead: a command that means
// something else than it says is worse than one that fails.
package cmdline
