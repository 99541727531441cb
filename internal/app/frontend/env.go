package frontend

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// The environment variables every command (and the action) reads.
const (
	// NowEnv overrides today's date (YYYY-MM-DD or RFC 3339) for expiry
	// and the report: reproducible runs and tests.
	NowEnv = "MCP_SURFACE_NOW"
	// MaxSnapshotEnv raises the bound on a snapshot file's size for every
	// command, since several commands read snapshots and a flag on each
	// would say the same thing.
	MaxSnapshotEnv = "MCP_SURFACE_MAX_SNAPSHOT_BYTES"
	// SchemaDirEnv names a directory of published schemas, like
	// --schema-dir.
	SchemaDirEnv = "MCP_SURFACE_SCHEMA_DIR"
	// CLIEnv is how the reader runs mcp-surface ("npx mcp-surface",
	// "python -m mcp_surface"), set by the npm and Python launchers and
	// test helpers, so that every command a message suggests runs as
	// written; "mcp-surface" when unset.
	CLIEnv = "MCP_SURFACE_CLI"
)

// Today is the date acknowledgements expire against: NowEnv, else now.
func Today(getenv func(string) string, now func() time.Time) (time.Time, error) {
	s := getenv(NowEnv)
	if s == "" {
		return now(), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s=%q is not a date (YYYY-MM-DD or RFC 3339)", NowEnv, s)
	}
	return t, nil
}

// SnapshotLimit is the bound on a snapshot file's size: MaxSnapshotEnv,
// or 0 for manifest.DefaultMaxFileBytes.
func SnapshotLimit(getenv func(string) string) (int64, error) {
	s := getenv(MaxSnapshotEnv)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: give a positive number of bytes", MaxSnapshotEnv, s)
	}
	return n, nil
}

// LoadConfig reads the configuration file at path, or
// config.DefaultFile in the current directory when path is "" and that
// file exists; nil when there is none. What the stages find wrong in it
// (check.CheckConfig) fails here too, before any work.
func LoadConfig(ctx context.Context, path string) (*config.Config, error) {
	if path == "" {
		if _, err := os.Stat(config.DefaultFile); err != nil {
			return nil, nil
		}
		path = config.DefaultFile
	}
	c, err := config.LoadContext(ctx, path)
	if err == nil {
		err = check.CheckConfig(c)
	}
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	return c, nil
}

// SchemaOptions completes o from the environment: the schema directory
// from SchemaDirEnv, and the cache directory spec.CacheDir chooses, each
// when o leaves it empty. A missing cache directory is not an error:
// schemas are then downloaded on every run (or come from the directory).
func SchemaOptions(o spec.Options, getenv func(string) string) spec.Options {
	if o.Dir == "" {
		o.Dir = getenv(SchemaDirEnv)
	}
	if o.CacheDir == "" {
		if d, err := spec.CacheDir(getenv); err == nil {
			o.CacheDir = d
		}
	}
	return o
}
