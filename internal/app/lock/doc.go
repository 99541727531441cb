// Package lock pins the servers a repository's agents use: the lock file
// (mcp-surface.lock.json) holds one snapshot per server that a client
// configuration (internal/app/clientconfig) declares, keyed by the configuration
// file and the server's name, with the hash of the configuration entry it
// was captured from. Compare judges a live capture against its entry for
// the team that consumes the server, for whom every change to the text
// the model reads matters.
package lock
