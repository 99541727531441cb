package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
)

// A snapshot is validated with its own revision's schema alone: a schema
// directory holding only that revision is enough, and what the others
// would have decided is named, not failed on.
func TestValidateSnapshotNeedsOnlyItsRevision(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(spectest.SchemaDir(t), "2025-03-26", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "2025-03-26"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "2025-03-26", "schema.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{frontend.SchemaDirEnv + "=", "RUNNER_TOOL_CACHE=" + t.TempDir()}
	args := []string{"validate", "--no-download", "--schema-dir", dir}

	r := run(t, env, append(args, writeFile(t, "s.json", badSnapshot))...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "tool-input-schema-not-object") {
		t.Fatalf("exit %d, want %d with the snapshot's findings\n%s%s", r.code, frontend.ExitFindings, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "protocol-feature-version-mismatch") {
		t.Errorf("a snapshot with nothing from other revisions needs none of them:\n%s", r.stdout)
	}

	foreign := strings.Replace(badSnapshot, `"inputSchema": {"type": "object"}}`, `"inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}`, 1)
	r = run(t, env, append(args, writeFile(t, "s.json", foreign))...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "protocol-feature-version-mismatch") || !strings.Contains(r.stdout, "2024-11-05, 2025-06-18, 2025-11-25, 2026-07-28") {
		t.Errorf("exit %d; want the incomplete comparison named\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = run(t, env, append(args, writeFile(t, "s.json", strings.Replace(badSnapshot, "2025-03-26", "2025-06-18", 1)))...)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "2025-06-18") || !strings.Contains(r.stderr, "schemas fetch") {
		t.Errorf("the snapshot's own revision missing: exit %d, want %d naming it\n%s", r.code, frontend.ExitFailure, r.stderr)
	}
}
