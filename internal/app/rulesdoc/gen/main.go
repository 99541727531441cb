package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/internal/app/rulesdoc"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	if err := run(root); err != nil {
		fmt.Fprintln(os.Stderr, "rulesdoc:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	page, err := rulesdoc.Generate(root)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, filepath.FromSlash(rulesdoc.Path)), page, 0o644)
}
