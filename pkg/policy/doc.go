// Package policy is the one policy step of every command: it applies a
// configuration (pkg/config) to findings at one moment. Severity overrides
// and the profile change levels, rules turned off drop their findings,
// acknowledgements mark what they cover and an expired one becomes a
// finding of its own (config-acknowledgement-expired). It also writes the
// acknowledged: entries that would accept a set of findings, the inverse of
// what the configuration parses.
//
// pkg/config only parses; this package is where its rules meet findings,
// so that the configuration depends on no stage of the pipeline.
package policy
