package spec

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
)

// Fetch makes sure the cache holds the verified schema of a revision,
// downloading it when the cache has none or a copy with the wrong digest
// (which is replaced). It returns the cache path.
func Fetch(ctx context.Context, opts Options, name string) (string, error) {
	rev, ok := LookupRevision(name)
	if !ok {
		return "", &UnknownRevisionError{name}
	}
	if opts.CacheDir == "" {
		return "", errors.New("fetching schemas: no cache directory")
	}
	path := filepath.Join(opts.CacheDir, name, "schema.json")
	if data, err := readFile(ctx, path); err == nil && verify(rev, path, data) == nil {
		return path, nil
	}
	url := rev.URL(opts.BaseURL)
	data, err := download(ctx, opts.HTTPClient, url)
	if err != nil {
		return "", fmt.Errorf("downloading schema %s from %s: %w", name, url, err)
	}
	if err := verify(rev, url, data); err != nil {
		return "", err
	}
	return writeCache(opts.CacheDir, name, data)
}

func download(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	return infile.Get(ctx, client, url, maxSchemaBytes)
}

// writeCache writes verified bytes to <dir>/<revision>/schema.json through
// a temporary file and a rename, so a reader never sees half a file.
func writeCache(dir, name string, data []byte) (string, error) {
	sub := filepath.Join(dir, name)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", fmt.Errorf("caching schema %s: %w", name, err)
	}
	tmp, err := os.CreateTemp(sub, ".schema.json.tmp*")
	if err != nil {
		return "", fmt.Errorf("caching schema %s: %w", name, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", fmt.Errorf("caching schema %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("caching schema %s: %w", name, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return "", fmt.Errorf("caching schema %s: %w", name, err)
	}
	path := filepath.Join(sub, "schema.json")
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("caching schema %s: %w", name, err)
	}
	return path, nil
}
