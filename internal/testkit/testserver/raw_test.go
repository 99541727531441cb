package testserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

type toolsPage struct {
	Tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tools"`
	NextCursor string         `json:"nextCursor"`
	Meta       map[string]any `json:"_meta"`
}

func decodePage(t *testing.T, raw json.RawMessage) toolsPage {
	t.Helper()
	var p toolsPage
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("decoding page: %v", err)
	}
	return p
}

func TestRawHandshake(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ asked, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2025-11-25"},
		{"1999-01-01", "2025-11-25"},
	} {
		p := startInProcess(t, "paged-raw")
		p.request(0, "server/discover", `{}`)
		if r := p.response(); r.Error == nil || r.Error.Code != -32601 {
			t.Fatalf("server/discover: %+v", r)
		}
		p.request(1, "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"x","version":"0"}}`, tc.asked))
		var init struct {
			ProtocolVersion string                     `json:"protocolVersion"`
			Capabilities    map[string]json.RawMessage `json:"capabilities"`
			ServerInfo      struct{ Name string }      `json:"serverInfo"`
		}
		if err := json.Unmarshal(p.result(1), &init); err != nil {
			t.Fatal(err)
		}
		if init.ProtocolVersion != tc.want {
			t.Errorf("asked %s, got %s, want %s", tc.asked, init.ProtocolVersion, tc.want)
		}
		if len(init.Capabilities) != 3 || init.ServerInfo.Name != "testserver-paged-raw" {
			t.Errorf("initialize result = %+v", init)
		}
		p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		p.request(2, "no/such/method", "")
		if r := p.response(); r.Error == nil || r.Error.Code != -32601 || string(r.ID) != "2" {
			t.Errorf("unknown method: %+v", r)
		}
		p.send(`this is not json`)
		if r := p.response(); r.Error == nil || r.Error.Code != -32700 {
			t.Errorf("garbage: %+v", r)
		}
		p.request(3, "ping", "")
		p.result(3)
		p.endsOnEOF(t)
	}
}

func TestRawCrashHandshake(t *testing.T) {
	t.Parallel()
	p := startInProcess(t, "crash-handshake")
	p.request(0, "server/discover", `{}`)
	p.response()
	p.request(1, "initialize", initializeParams)
	err := p.wait(t, 5*time.Second)
	var ee *testserver.ExitError
	if !errors.As(err, &ee) || ee.Code != 3 {
		t.Fatalf("RunStdio = %v, want exit status 3", err)
	}
	if !strings.Contains(p.stderr.String(), "fatal: config file missing\n") {
		t.Errorf("stderr = %q", p.stderr.String())
	}
}

func TestRawHang(t *testing.T) {
	p := startInProcess(t, "hang")
	p.request(0, "server/discover", `{}`)
	p.request(1, "initialize", initializeParams)
	if line, ok := p.tryReadLine(200 * time.Millisecond); ok {
		t.Fatalf("hang answered: %s", line)
	}
	p.w.Close()
	select {
	case err := <-p.done:
		t.Fatalf("hang returned after EOF: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	p.cancel()
	if err := p.wait(t, 5*time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("RunStdio after cancel = %v", err)
	}
}

func TestRawHangLists(t *testing.T) {
	p := listingTools(t, "hang-lists")
	if line, ok := p.tryReadLine(200 * time.Millisecond); ok {
		t.Fatalf("tools/list answered: %s", line)
	}
	p.request(3, "ping", "")
	p.result(3) // still alive
	p.endsOnEOF(t)
}

func TestRawStdoutLog(t *testing.T) {
	t.Parallel()
	checkStdoutLog(t, startInProcess(t, "stdout-log").rawConn)
}

// checkStdoutLog walks stdout-log's session on c: the banner first, then
// a debug line before every response.
func checkStdoutLog(t *testing.T, c *rawConn) {
	t.Helper()
	if got := c.readLine(10 * time.Second); got != testserver.StdoutLogBanner {
		t.Fatalf("first line = %q", got)
	}
	c.request(1, "initialize", initializeParams)
	if got := c.readLine(5 * time.Second); got != testserver.StdoutLogDebugPrefix+"initialize" {
		t.Fatalf("line = %q", got)
	}
	c.result(1)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.request(2, "tools/list", "{}")
	if got := c.readLine(5 * time.Second); got != testserver.StdoutLogDebugPrefix+"tools/list" {
		t.Fatalf("line = %q", got)
	}
	if n := len(decodePage(t, c.result(2)).Tools); n != 2 {
		t.Errorf("%d tools, want 2", n)
	}
}

func TestRawInvalidJSON(t *testing.T) {
	t.Parallel()
	p := listingTools(t, "invalid-json")
	want := `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a"`
	if got := p.readLine(5 * time.Second); got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
}

func TestRawHuge(t *testing.T) {
	t.Parallel()
	p := listingTools(t, "huge")
	line := p.readLine(30 * time.Second)
	if len(line) < 20_000_000 {
		t.Errorf("line is %d bytes, want > 20 MB", len(line))
	}
	// Decoding 22 MB is slow under -race; check the shape by counting.
	if !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"tool_00000",`) || !strings.HasSuffix(line, `}]}}`) {
		t.Errorf("unexpected framing: %.80s ... %s", line, line[len(line)-20:])
	}
	if n := strings.Count(line, `"name":"tool_`); n != testserver.HugeToolCount {
		t.Errorf("%d tools, want %d", n, testserver.HugeToolCount)
	}
	desc := "Tool 00000. " + strings.Repeat("x", testserver.HugeDescriptionLen-12)
	if !strings.Contains(line, `"description":"`+desc+`"`) {
		t.Error("first description is not HugeDescriptionLen bytes")
	}
	if strings.Contains(line, "nextCursor") {
		t.Error("huge has more than one page")
	}
}

func TestRawRepeatCursor(t *testing.T) {
	t.Parallel()
	p := listingTools(t, "repeat-cursor")
	a := decodePage(t, p.result(2))
	p.request(3, "tools/list", `{"cursor":"page-2"}`)
	b := decodePage(t, p.result(3))
	if len(a.Tools) != 1 || len(b.Tools) != 1 || a.NextCursor != "page-2" || b.NextCursor != "page-2" {
		t.Errorf("pages = %+v %+v", a, b)
	}
}

func TestRawEndlessPages(t *testing.T) {
	t.Parallel()
	p := startInProcess(t, "endless-pages")
	p.handshake()
	cursor, names := "", map[string]bool{}
	for i := range 50 {
		params := "{}"
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q}`, cursor)
		}
		p.request(i+2, "tools/list", params)
		page := decodePage(t, p.result(i+2))
		if len(page.Tools) != 1 || names[page.Tools[0].Name] {
			t.Fatalf("page %d: %+v", i+1, page)
		}
		names[page.Tools[0].Name] = true
		if want := fmt.Sprintf("c%d", i+1); page.NextCursor != want {
			t.Fatalf("page %d: next %q, want %q", i+1, page.NextCursor, want)
		}
		cursor = page.NextCursor
	}
	p.request(100, "tools/list", `{"cursor":"bogus"}`)
	if r := p.response(); r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("bogus cursor: %+v", r)
	}
}

func TestRawDuplicateName(t *testing.T) {
	t.Parallel()
	p := listingTools(t, "duplicate-name")
	page := decodePage(t, p.result(2))
	if len(page.Tools) != 2 || page.Tools[0].Name != "search" || page.Tools[1].Name != "search" ||
		page.Tools[0].Description == page.Tools[1].Description {
		t.Errorf("page = %+v", page)
	}
}

func TestRawPagedRaw(t *testing.T) {
	t.Parallel()
	p := startInProcess(t, "paged-raw")
	p.handshake()
	pages := p.toolPages(2)
	for i, res := range pages {
		if decodePage(t, res).Meta == nil {
			t.Errorf("page %d has no result-level _meta", i+1)
		}
	}
	if len(pages) != 3 {
		t.Fatalf("%d pages, want 3", len(pages))
	}
	if !strings.Contains(string(pages[1]), `"x-vendor":{"cost":3,"tier":"gold"}`) {
		t.Errorf("page 2 lacks the x-vendor field: %s", pages[1])
	}
	for i, m := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		p.request(10+i, m, "{}")
		p.result(10 + i)
	}
}

// raceEnabled is set by race_test.go.
var raceEnabled bool

// The SDK client's view of the raw modes: what a capture built on the
// go-sdk client runs into.
func TestSDKClientAgainstRawModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("paged-raw", func(t *testing.T) {
		cs, _ := sdkClientPipes(t, "paged-raw", 0)
		if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
			t.Errorf("negotiated %s after server/discover fallback", v)
		}
		got := countSurface(t, cs)
		want := surfaceCounts{tools: &listCount{5, 3}, prompts: &listCount{2, 1}, resources: &listCount{2, 1}, templates: &listCount{1, 1}}
		if *got.tools != *want.tools || *got.prompts != *want.prompts || *got.resources != *want.resources || *got.templates != *want.templates {
			t.Errorf("got %+v %+v %+v %+v", *got.tools, *got.prompts, *got.resources, *got.templates)
		}
	})

	t.Run("sdk-reject", func(t *testing.T) {
		cs, _ := sdkClientPipes(t, "sdk-reject", 0)
		_, err := cs.ListTools(ctx, nil)
		if err == nil || !strings.Contains(err.Error(), "readOnlyHint") {
			t.Errorf("ListTools error = %v, want a decoding error about readOnlyHint", err)
		}
	})

	t.Run("duplicate-name", func(t *testing.T) {
		cs, _ := sdkClientPipes(t, "duplicate-name", 0)
		res, err := cs.ListTools(ctx, nil)
		if err != nil || len(res.Tools) != 2 {
			t.Errorf("ListTools = %v, %v; the SDK client passes duplicates through", res, err)
		}
	})

	t.Run("huge", func(t *testing.T) {
		cs, _ := sdkClientPipes(t, "huge", 0)
		if _, err := cs.ListTools(ctx, nil); err == nil {
			t.Error("ListTools succeeded with the default 16 MiB line limit")
		}
		if testing.Short() || raceEnabled {
			return // decoding 22 MB takes >10 s under -race
		}
		cs2, _ := sdkClientPipes(t, "huge", -1)
		res, err := cs2.ListTools(ctx, nil)
		if err != nil || len(res.Tools) != testserver.HugeToolCount {
			t.Errorf("ListTools without a line limit: %v", err)
		}
	})

	t.Run("invalid-json", func(t *testing.T) {
		// The SDK's decoder waits for the rest of the truncated object
		// instead of failing: only a deadline gets the caller out.
		cs, _ := sdkClientPipes(t, "invalid-json", 0)
		cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		if _, err := cs.ListTools(cctx, nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("ListTools = %v, want deadline exceeded", err)
		}
	})
}

func TestSDKClientRejectsStdoutLog(t *testing.T) {
	t.Parallel()
	// Non-JSON on stdout kills the go-sdk client's connection at once.
	cs, _, err := connectSDKPipes(t, "stdout-log", 0)
	if err == nil {
		cs.Close()
		t.Fatal("Connect succeeded despite non-JSON stdout")
	}
	if !strings.Contains(err.Error(), "invalid character 'S'") {
		t.Errorf("Connect error = %v", err)
	}
}
