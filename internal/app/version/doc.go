// Package version says which mcp-surface a binary is, for --version, the
// reports' tool version and the client name sent to servers.
//
// A release build is stamped at link time (goreleaser sets the variables
// below with -ldflags -X). Every other build still knows where it came
// from, because the Go toolchain records it in the binary: `go install
// module@v1.2.3` records the module version, and `go build` in a git
// checkout records the commit and whether the tree had local changes. So
// a binary built from a checkout names its commit instead of a bare "dev".
//
// The stamped values win over the recorded ones; the recorded commit fills
// in what the stamp leaves out.
package version
