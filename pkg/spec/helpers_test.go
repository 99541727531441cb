package spec

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
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

// captureFromFrames builds a Capture the way the recorder does: frames in
// order, requests paired with responses by id, list pages and the
// handshake taken from the exchanges.
func captureFromFrames(t testing.TB, frames []capture.Frame) *capture.Capture {
	t.Helper()
	c := &capture.Capture{Target: "fixture", Transport: "stdio", Frames: frames}
	pending := map[string]int{}
	for _, f := range frames {
		var e struct {
			ID     json.RawMessage   `json:"id"`
			Method *string           `json:"method"`
			Params json.RawMessage   `json:"params"`
			Result json.RawMessage   `json:"result"`
			Error  *capture.RPCError `json:"error"`
		}
		if json.Unmarshal(f.Data, &e) != nil {
			continue
		}
		id := string(e.ID)
		switch {
		case f.Dir == capture.Sent && e.Method != nil && id != "":
			pending[id] = len(c.Exchanges)
			c.Exchanges = append(c.Exchanges, capture.Exchange{Method: *e.Method, Params: e.Params, RequestFrame: f.Seq, ResponseFrame: -1})
		case f.Dir == capture.Received && e.Method == nil && id != "":
			i, ok := pending[id]
			if !ok {
				continue
			}
			delete(pending, id)
			c.Exchanges[i].ResponseFrame = f.Seq
			c.Exchanges[i].Result = e.Result
			c.Exchanges[i].Error = e.Error
		}
	}
	index := map[string]int{}
	for _, x := range c.Exchanges {
		switch x.Method {
		case capture.HandshakeInitialize, capture.HandshakeDiscover:
			if x.Result != nil && c.HandshakeResult == nil {
				c.Handshake = x.Method
				c.HandshakeResult = x.Result
				var r struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				_ = json.Unmarshal(x.Result, &r)
				c.ProtocolVersion = r.ProtocolVersion
				var p struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				_ = json.Unmarshal(x.Params, &p)
				c.RequestedVersion = p.ProtocolVersion
			}
		case capture.MethodToolsList, capture.MethodPromptsList, capture.MethodResourcesList, capture.MethodResourceTemplatesList:
			if x.Result == nil {
				continue
			}
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(x.Params, &p)
			c.Pages = append(c.Pages, capture.Page{Method: x.Method, Index: index[x.Method], Cursor: p.Cursor, Result: x.Result, Frame: x.ResponseFrame})
			index[x.Method]++
		}
	}
	return c
}

// parseFrames reads "> {json}" (sent) and "< {json}" (received) lines;
// "<raw " keeps the rest of the line verbatim (for frames that are not
// JSON objects).
func parseFrames(t testing.TB, data []byte) []capture.Frame {
	t.Helper()
	var out []capture.Frame
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var dir capture.Direction
		switch line[0] {
		case '>':
			dir = capture.Sent
		case '<':
			dir = capture.Received
		default:
			t.Fatalf("frame line must start with > or <: %q", line)
		}
		body := strings.TrimSpace(line[1:])
		if !json.Valid([]byte(body)) && dir == capture.Sent {
			t.Fatalf("sent frame is not JSON: %q", line)
		}
		out = append(out, capture.Frame{Seq: len(out), Dir: dir, Data: json.RawMessage(body)})
	}
	return out
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
