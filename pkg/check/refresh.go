package check

import (
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/config"
)

// SnapshotCommand is the command line (for /bin/sh) that rewrites the
// committed snapshot of s: `mcp-surface snapshot --server NAME` (the name
// given when named: the list has several, or one was picked) for a server
// of the servers: list in configFile when fromList, else `mcp-surface
// snapshot -o FILE` with the server's command or URL. The URL's headers
// are left out: they may hold secrets.
func SnapshotCommand(s Server, file string, fromList bool, configFile string, named bool) string {
	words := []string{"mcp-surface", "snapshot"}
	switch {
	case fromList:
		if configFile != "" && filepath.Clean(configFile) != config.DefaultFile {
			words = append(words, "--config", configFile)
		}
		if named {
			words = append(words, "--server", s.Name)
		}
	default:
		words = append(words, "-o", file)
		switch {
		case s.URL != "":
			words = append(words, "--url", s.URL)
			if s.SSE {
				words = append(words, "--sse")
			}
		case s.Shell:
			words = append(words, "--shell", "--")
			words = append(words, s.Command...)
		default:
			words = append(words, "--")
			words = append(words, s.Command...)
		}
	}
	return cmdline.Join(words)
}
