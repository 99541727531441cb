// Package actioninstall holds the tests of the action's binary step,
// scripts/action-install.sh, which has no Go code of its own: it is run
// against a stand-in for the GitHub release download on loopback, serving
// archives the tests make, and a local git repository standing in for the
// action's tags.
//
// The archive names are the contract between .goreleaser.yaml (which
// makes them) and the script (which asks for them); the tests read both
// sides. They also hold action.yml and the workflows to pinning every
// third-party action by commit SHA.
package actioninstall
