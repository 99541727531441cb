package manifest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func TestReadFileIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, _ := os.Create(path)
	f.Truncate(manifest.DefaultMaxFileBytes + 1)
	f.Close()
	var te *infile.TooLargeError
	_, err := manifest.ReadFile(path)
	if !errors.As(err, &te) || te.What != manifest.FileLimit || !strings.Contains(err.Error(), "larger than 256 MiB") {
		t.Errorf("default limit: got %v", err)
	}
	_, err = manifest.ReadFileContext(context.Background(), "/dev/zero", 1<<20)
	if !errors.As(err, &te) || te.Limit != 1<<20 {
		t.Errorf("/dev/zero: got %v", err)
	}
}
