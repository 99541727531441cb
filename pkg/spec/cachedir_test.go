package spec

import (
	"path/filepath"
	"testing"
)

func TestCacheDir(t *testing.T) {
	inActions := func(k string) string {
		if k == "RUNNER_TOOL_CACHE" {
			return "/opt/hostedtoolcache"
		}
		return ""
	}
	if d, err := CacheDir(inActions); err != nil || d != filepath.Join("/opt/hostedtoolcache", "mcp-surface", "schemas") {
		t.Errorf("in Actions: %q, %v", d, err)
	}
	home := func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }
	if d, err := userCacheDir("linux", home); err != nil || d != filepath.Join("/home/u", ".cache") {
		t.Errorf("linux from HOME: %q, %v", d, err)
	}
	if d, err := userCacheDir("darwin", home); err != nil || d != filepath.Join("/home/u", "Library", "Caches") {
		t.Errorf("darwin from HOME: %q, %v", d, err)
	}
	if _, err := userCacheDir("linux", func(string) string { return "" }); err == nil {
		t.Error("no HOME: no error")
	}
	if _, err := CacheDir(func(string) string { return "" }); err == nil {
		t.Error("no HOME: CacheDir found a directory")
	}
}
