package frontend

// Exit codes of both front ends (the README lists them): never 1 for a
// tool failure, never 2 for a finding.
const (
	ExitOK       = 0 // nothing at or above --fail-on
	ExitFindings = 1 // findings at or above --fail-on
	ExitFailure  = 2 // the tool could not do its job
	// ExitInterrupted is the exit code of a second interrupt, which ends
	// the program at once (128 + SIGINT, as shells report it).
	ExitInterrupted = 130
)
