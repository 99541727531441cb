package spec

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
)

// CacheDir is where published schemas are cached: the runner's tool cache
// in GitHub Actions (kept between jobs by the runner image), the user's
// cache directory elsewhere. getenv looks up the environment of the caller,
// so that nothing in this package reads the process environment.
func CacheDir(getenv func(string) string) (string, error) {
	if d := getenv("RUNNER_TOOL_CACHE"); d != "" {
		return filepath.Join(d, "mcp-surface", "schemas"), nil
	}
	d, err := userCacheDir(runtime.GOOS, getenv)
	if err != nil {
		return "", fmt.Errorf("no cache directory for schemas: %w", err)
	}
	return filepath.Join(d, "mcp-surface", "schemas"), nil
}

func userCacheDir(goos string, getenv func(string) string) (string, error) {
	switch goos {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return d, nil
		}
		return "", errors.New("%LocalAppData% is not defined")
	case "darwin", "ios":
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, "Library", "Caches"), nil
		}
		return "", errors.New("$HOME is not defined")
	case "plan9":
		if h := getenv("home"); h != "" {
			return filepath.Join(h, "lib", "cache"), nil
		}
		return "", errors.New("$home is not defined")
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" {
		if !filepath.IsAbs(d) {
			return "", errors.New("$XDG_CACHE_HOME is a relative path")
		}
		return d, nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache"), nil
	}
	return "", errors.New("neither $XDG_CACHE_HOME nor $HOME are defined")
}
