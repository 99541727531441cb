package surfacetest

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// Environment variables Check reads.
const (
	// UpdateEnv set to 1 (or true) rewrites the snapshot, like the flag.
	UpdateEnv = "MCP_SURFACE_UPDATE"
	// SchemaDirEnv names a directory of published schemas laid out as
	// DIR/<revision>/schema.json, as for the CLI.
	SchemaDirEnv = "MCP_SURFACE_SCHEMA_DIR"
)

// update is -surfacetest.update, registered on the test binary's flags.
var update = flag.Bool("surfacetest.update", false, "rewrite the snapshots of surfacetest.Check instead of comparing with them (or set "+UpdateEnv+"=1)")

// TB is the part of testing.TB that Check uses.
type TB interface {
	Helper()
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Options configure Check. The zero value compares with
// testdata/mcp-surface.json and fails on errors.
type Options struct {
	// Snapshot is the committed snapshot file; "" means
	// testdata/mcp-surface.json.
	Snapshot string
	// FailOn is the level at or above which a finding fails the test:
	// error, warning, note, info or none (breaking and risky are accepted
	// for error and warning); "" means error.
	FailOn string
	// ProtocolVersion is the revision requested; "" means the latest.
	ProtocolVersion string
	// Clients are client profiles (openai, gemini, claude-code:SERVER,
	// ...) every tool is checked against, and whose loss is a change.
	Clients []string
	// SchemaDir holds the published MCP schemas; "" means
	// $MCP_SURFACE_SCHEMA_DIR, else the schema cache.
	SchemaDir string
	// CacheDir is the schema cache; "" means the user cache directory's
	// mcp-surface/schemas, the one `mcp-surface schemas fetch` fills.
	CacheDir string
	// NoDownload never downloads a missing schema.
	NoDownload bool
	// Update rewrites the snapshot, as -surfacetest.update does.
	Update bool
}

// Check captures server in process and holds its surface against the
// committed snapshot: see the package documentation.
func Check(t TB, server *mcp.Server, o Options) {
	t.Helper()
	if o.Snapshot == "" {
		o.Snapshot = filepath.Join("testdata", "mcp-surface.json")
	}
	failOn, err := rules.ParseLevel(o.FailOn)
	if o.FailOn == "" {
		failOn, err = rules.LevelError, nil
	}
	if err != nil {
		t.Fatalf("surfacetest: FailOn: %v", err)
		return
	}
	profiles, err := clients.ParseList(o.Clients)
	if err != nil {
		t.Fatalf("surfacetest: Clients: %v", err)
		return
	}
	ctx := context.Background()

	c, err := capture.Run(ctx, capture.InProcess{Server: server}, capture.Options{
		ProtocolVersion: o.ProtocolVersion, ClientName: "mcp-surface-surfacetest", ClientVersion: "test",
	})
	if err != nil {
		t.Fatalf("surfacetest: capturing the server: %v", err)
		return
	}
	head, err := manifest.Build(c)
	if err == nil && head.Incomplete() { // never compared, nor written, as if the failed list were empty
		err = &capture.IncompleteError{Failures: c.ListFailures()}
	}
	if err != nil {
		t.Fatalf("surfacetest: building the snapshot: %v", err)
		return
	}
	so := o.schemaOptions()
	schemas, err := spec.Open(ctx, so, c.ProtocolVersion)
	var found []finding.Finding
	if err == nil {
		found, err = spec.ValidateWith(c, schemas, spec.LintOptions{Clients: profiles})
	}
	if err != nil {
		t.Fatalf("surfacetest: validating: %v%s", err, schemaHint(err, so))
		return
	}

	if o.Update || *update || updateFromEnv() {
		if err := os.MkdirAll(filepath.Dir(o.Snapshot), 0o755); err != nil {
			t.Fatalf("surfacetest: %v", err)
			return
		}
		old, _ := manifest.ReadFile(o.Snapshot)
		if err := manifest.WriteFile(o.Snapshot, head); err != nil {
			t.Fatalf("surfacetest: writing the snapshot: %v", err)
			return
		}
		if old != nil && !old.Incomplete() && old.Fingerprints.Manifest != head.Fingerprints.Manifest {
			// What the rewrite changed, as snapshot says it.
			res := check.Diff(old, head, o.Snapshot, "the server under test", check.Options{Schemas: schemas, Clients: profiles, Version: "surfacetest"})
			var buf bytes.Buffer
			if err := report.WriteBrief(&buf, res.Report, report.Options{FailOn: failOn}, report.BriefText{Snapshot: o.Snapshot, Rewritten: true}); err == nil {
				t.Logf("surfacetest: %s", strings.TrimRight(buf.String(), "\n"))
			}
		}
		t.Logf("surfacetest: wrote %s (%d tools, %d prompts, %d resources, %d resource templates); review and commit it",
			o.Snapshot, len(head.Tools), len(head.Prompts), len(head.Resources), len(head.ResourceTemplates))
		o.judge(t, failOn, found, nil)
		return
	}
	base, err := manifest.ReadFile(o.Snapshot)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("surfacetest: there is no snapshot %s yet: run the test with -surfacetest.update (or %s=1) to write it, then review and commit it", o.Snapshot, UpdateEnv)
		return
	}
	if err != nil {
		t.Fatalf("surfacetest: reading the snapshot: %v", err)
		return
	}
	res := check.Diff(base, head, o.Snapshot, "the server under test", check.Options{Schemas: schemas, Clients: profiles, Version: "surfacetest"})
	o.judge(t, failOn, found, res)
}

// judge reports the findings as `snapshot --check` does: the verdict
// first, one line per finding, and how to rewrite the snapshot; a
// failure when one is at or above failOn, a log line otherwise.
func (o Options) judge(t TB, failOn rules.Level, found []finding.Finding, res *check.Result) {
	t.Helper()
	var sec report.Section
	if res != nil {
		sec = res.Report.Servers[0]
	}
	sec.Command = "surfacetest"
	sec.Findings = append(slices.Clone(sec.Findings), found...)
	if len(sec.Findings) == 0 {
		return
	}
	rep := &report.Report{Version: "surfacetest", Servers: []report.Section{sec}}
	ro := report.Options{FailOn: failOn}
	bt := report.BriefText{Snapshot: o.Snapshot, Intended: o.rewriteHint(t), MoreNote: "the report logged above shows every change"}
	fails := check.Fails(sec.Findings, failOn, nil)
	if fails && len(report.BriefLines(&sec, failOn)) > report.MaxBriefLines {
		var full bytes.Buffer
		if err := report.Render(&full, "text", rep, ro); err != nil {
			t.Fatalf("surfacetest: rendering the report: %v", err)
			return
		}
		t.Logf("surfacetest: every finding:\n%s", strings.TrimRight(full.String(), "\n"))
	}
	if !fails {
		bt.Intended = ""
	}
	var buf bytes.Buffer
	if err := report.WriteBrief(&buf, rep, ro, bt); err != nil {
		t.Fatalf("surfacetest: rendering the report: %v", err)
		return
	}
	text := strings.TrimRight(buf.String(), "\n")
	if fails {
		t.Errorf("%s", text)
		return
	}
	t.Logf("surfacetest: findings below %s:\n%s", failOn, text)
}

// rewriteHint says how to rewrite the snapshot, in go test's terms: the
// failing test run again with -surfacetest.update.
func (o Options) rewriteHint(t TB) string {
	run := ""
	if n, ok := t.(interface{ Name() string }); ok {
		if top, _, _ := strings.Cut(n.Name(), "/"); top != "" && !strings.ContainsAny(top, "'\\") {
			run = " -run '^" + top + "$'"
		}
	}
	return "run `go test" + run + " -surfacetest.update` (or " + UpdateEnv + "=1) and commit " + o.Snapshot
}

// schemaOptions resolves where the published schemas come from.
func (o Options) schemaOptions() spec.Options {
	so := spec.Options{Dir: o.SchemaDir, CacheDir: o.CacheDir, NoDownload: o.NoDownload}
	if so.Dir == "" {
		so.Dir = os.Getenv(SchemaDirEnv)
	}
	if so.CacheDir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			so.CacheDir = filepath.Join(d, "mcp-surface", "schemas")
		}
	}
	return so
}

// schemaHint says how to get the schemas without network.
func schemaHint(err error, so spec.Options) string {
	var nf *spec.NotFoundError
	if !errors.As(err, &nf) {
		return ""
	}
	cache := so.CacheDir
	if cache == "" {
		cache = "the user cache directory's mcp-surface/schemas"
	}
	return fmt.Sprintf("\nTo get them offline: run `mcp-surface schemas fetch` once where the network is reachable (it fills %s, which this test reads), "+
		"or set %s (or Options.SchemaDir) to a directory holding DIR/%s/schema.json.", cache, SchemaDirEnv, nf.Revision)
}

func updateFromEnv() bool {
	v, err := strconv.ParseBool(os.Getenv(UpdateEnv))
	return err == nil && v
}
