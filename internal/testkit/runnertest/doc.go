// Package runnertest reads a log as the GitHub Actions runner does, for
// the tests that run hostile servers through the command line or the
// action: which workflow commands the runner would obey, and whether one
// of them (or a terminal escape) is the server's.
package runnertest
