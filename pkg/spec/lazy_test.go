package spec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// onlyRevisions makes a schema directory holding just the named
// revisions, copied from the test schemas.
func onlyRevisions(t *testing.T, names ...string) string {
	t.Helper()
	src := schemaDir(t)
	dir := t.TempDir()
	for _, n := range names {
		data := mustRead(t, filepath.Join(src, n, "schema.json"))
		if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n, "schema.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	// cleanSnapshot uses only what 2025-03-26 defines.
	cleanSnapshot = `{"protocolVersion": "2025-03-26",
  "serverInfo": {"name": "demo", "version": "1.0.0"}, "capabilities": {"tools": {}},
  "tools": [{"name": "read_file", "description": "Read a file.", "inputSchema": {"type": "object"}}]}`
	// foreignSnapshot has a 2025-03-26 tool with outputSchema (from
	// 2025-06-18 on) and a member no revision defines.
	foreignSnapshot = `{"protocolVersion": "2025-03-26",
  "serverInfo": {"name": "demo", "version": "1.0.0"}, "capabilities": {"tools": {}},
  "tools": [{"name": "read_file", "description": "Read a file.", "inputSchema": {"type": "object"},
    "outputSchema": {"type": "object"}, "x-vendor": true}]}`
)

// validateOpened opens 2025-03-26 with opts and validates the snapshot
// src against it.
func validateOpened(t *testing.T, opts Options, src string) (*Schemas, []finding.Finding) {
	t.Helper()
	s, err := Open(context.Background(), opts, "2025-03-26")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ValidateManifest(manifestFromJSON(t, []byte(src)), s)
	if err != nil {
		t.Fatal(err)
	}
	return s, got
}

func TestValidateSnapshotWithOneRevision(t *testing.T) {
	opts := Options{Dir: onlyRevisions(t, "2025-03-26"), NoDownload: true}
	ctx := context.Background()
	if _, err := Load(ctx, opts); err == nil {
		t.Fatal("Load of every revision from a directory with one: no error")
	}

	t.Run("clean", func(t *testing.T) {
		s, got := validateOpened(t, opts, cleanSnapshot)
		if len(got) != 0 {
			t.Errorf("findings:\n%s", render(got))
		}
		if n := len(s.All()); n != 1 {
			t.Errorf("%d revisions loaded, want only the snapshot's", n)
		}
	})

	t.Run("a member the revision does not define", func(t *testing.T) {
		_, got := validateOpened(t, opts, foreignSnapshot)
		if len(got) != 1 || got[0].Rule != "protocol-feature-version-mismatch" || got[0].Subject != server {
			t.Fatalf("want one finding about the incomplete comparison, got:\n%s", render(got))
		}
		for _, want := range []string{"2024-11-05, 2025-06-18, 2025-11-25, 2026-07-28", "tool read_file outputSchema and 1 more", "no published MCP schema for revision 2024-11-05"} {
			if !strings.Contains(got[0].Message, want) {
				t.Errorf("the message lacks %q:\n%s", want, got[0].Message)
			}
		}
	})

	t.Run("the revision that defines it", func(t *testing.T) {
		_, got := validateOpened(t, Options{Dir: onlyRevisions(t, "2025-03-26", "2025-06-18"), NoDownload: true}, foreignSnapshot)
		out := render(got)
		if len(got) != 2 {
			t.Fatalf("want the mismatch and the incomplete comparison, got:\n%s", out)
		}
		for _, want := range []string{
			"/outputSchema", "Tool has it from 2025-06-18; not compared with 2024-11-05, 2025-11-25, 2026-07-28",
			"the schema of 2024-11-05, 2025-11-25, 2026-07-28 could not be loaded", "fields of 2024-11-05, 2025-11-25 or 2026-07-28 or extensions: tool read_file x-vendor;",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("findings lack %q:\n%s", want, out)
			}
		}
	})

	t.Run("the snapshot's own revision missing", func(t *testing.T) {
		_, err := Open(ctx, opts, "2025-06-18")
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.Revision != "2025-06-18" {
			t.Fatalf("want a NotFoundError for 2025-06-18, got %v", err)
		}
		s, _ := Open(ctx, opts)
		if _, err := ValidateManifest(manifestFromJSON(t, []byte(strings.Replace(cleanSnapshot, "2025-03-26", "2025-06-18", 1))), s); !errors.As(err, &nf) {
			t.Fatalf("validating without the revision's schema: want a NotFoundError, got %v", err)
		}
	})
}

// With every revision loaded, the same snapshot gets the mismatch alone.
func TestValidateSnapshotWithEveryRevision(t *testing.T) {
	got, err := ValidateManifest(manifestFromJSON(t, []byte(foreignSnapshot)), testSchemas(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.Contains(got[0].Message, "(Tool has it from 2025-06-18); clients") {
		t.Fatalf("want the mismatch alone, got:\n%s", render(got))
	}
}
