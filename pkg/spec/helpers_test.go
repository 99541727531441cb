package spec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// schemaDir finds the published schemas for tests (see sharedtest): the
// test data directory, else the cache, filled by Fetch when it lacks one.
func schemaDir(t testing.TB) string {
	t.Helper()
	dir, err := sharedtest.MCPSchemaDir(fillCache)
	sharedtest.Require(t, err)
	return dir
}

func fillCache(ctx context.Context, dir string, client *http.Client) error {
	for _, rev := range RevisionNames() {
		if _, err := Fetch(ctx, Options{CacheDir: dir, HTTPClient: client}, rev); err != nil {
			return err
		}
	}
	return nil
}

var (
	loadOnce sync.Once
	loaded   *Schemas
	loadErr  error
)

// testSchemas loads every revision from the test schema directory, once.
func testSchemas(t testing.TB) *Schemas {
	t.Helper()
	dir := schemaDir(t)
	loadOnce.Do(func() {
		loaded, loadErr = Load(context.Background(), Options{Dir: dir, NoDownload: true})
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

// manifestFromJSON builds a Manifest by hand from a snapshot-shaped JSON
// object (only the members validation reads).
func manifestFromJSON(t testing.TB, data []byte) *manifest.Manifest {
	t.Helper()
	var f struct {
		ProtocolVersion   string            `json:"protocolVersion"`
		Handshake         string            `json:"handshake"`
		ServerInfo        json.RawMessage   `json:"serverInfo"`
		Capabilities      json.RawMessage   `json:"capabilities"`
		Instructions      json.RawMessage   `json:"instructions"`
		Tools             []json.RawMessage `json:"tools"`
		Prompts           []json.RawMessage `json:"prompts"`
		Resources         []json.RawMessage `json:"resources"`
		ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	if bytes.Contains(data, []byte(`"snapshotVersion"`)) {
		// A whole snapshot file (the extensions' fixtures): read as written.
		m, err := manifest.FromCanonicalJSON(data)
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		return m
	}
	m := &manifest.Manifest{SnapshotVersion: manifest.FormatVersion, ProtocolVersion: f.ProtocolVersion, Handshake: f.Handshake,
		ServerInfo: f.ServerInfo, Capabilities: f.Capabilities, Instructions: f.Instructions}
	items := func(sec *itemList, raws []json.RawMessage) []manifest.Item {
		var out []manifest.Item
		for _, r := range raws {
			v, err := decodeJSON(r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, manifest.Item{ID: identity(sec, v), Raw: r})
		}
		return out
	}
	m.Tools = items(itemLists[0], f.Tools)
	m.Prompts = items(itemLists[1], f.Prompts)
	m.Resources = items(itemLists[2], f.Resources)
	m.ResourceTemplates = items(itemLists[3], f.ResourceTemplates)
	return m
}

// render prints findings for comparison with a fixture's "want".
func render(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s %s %s\n\t%s\n", f.Level, f.Rule, f.Subject.Kind, strconv.Quote(f.Subject.Name), strconv.Quote(f.Pointer), f.Message)
	}
	return b.String()
}
