// Command mcp-surface guards the advertised surface of MCP servers in CI.
package main

import (
	"os"

	"github.com/mcp-surface/mcp-surface/internal/app/cli"
)

func main() { os.Exit(cli.Main()) }
