package config_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/pkg/config"
)

// Load reads a .mcp-surface.yaml; a mistake is reported with its line.
func ExampleLoad() {
	dir, err := os.MkdirTemp("", "config-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, config.DefaultFile)
	src := "profile: strict\nseverity:\n  tool-description-changed: breaking\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		panic(err)
	}
	c, err := config.Load(path)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Profile, c.Severity["tool-description-changed"].Severity)

	if err := os.WriteFile(path, []byte("profile: strcit\n"), 0o644); err != nil {
		panic(err)
	}
	_, err = config.Load(path)
	fmt.Println(err != nil)
	// Output:
	// strict breaking
	// true
}
