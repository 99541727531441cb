package testserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// This file is the raw newline-delimited JSON-RPC loop behind the
// misbehaving modes. It is deliberately simple and writes exact bytes.

// Sizes of the huge mode's single tools/list page.
const (
	HugeToolCount      = 20000
	HugeDescriptionLen = 1000
)

// RepeatCursor is the nextCursor the repeat-cursor mode always returns.
const RepeatCursor = "page-2"

// MaxHang bounds how long the modes that hang forever (hang and
// ignore-sigterm after stdin's EOF, sleeper, daemon) actually wait before giving up
// and returning, so that a test that forgets to kill them cannot leave
// processes behind for long. Tests finish in seconds; this is only a guard.
var MaxHang = 10 * time.Minute

// Protocol versions the raw modes negotiate: the request's version is echoed
// when it is one of these, otherwise the latest is answered.
var rawProtocolVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

const latestRawProtocolVersion = "2025-11-25"

// JSON-RPC error codes used by the raw loop.
const (
	codeParseError     = -32700
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// CrashHandshakeStderr is what crash-handshake writes to stderr when it
// receives initialize, right before exiting with status 3.
const CrashHandshakeStderr = "fatal: config file missing\n" +
	"  looked in: ./testserver.yaml, ~/.config/testserver/config.yaml\n" +
	"  hint: run `testserver init` to create one\n" +
	"exiting with status 3\n"

// CrashHandshakeExitCode is crash-handshake's exit status.
const CrashHandshakeExitCode = 3

// StdoutLogBanner and StdoutLogDebugPrefix are the non-JSON lines stdout-log
// prints on stdout: the banner once at startup (before any response), and
// "debug: handling <method>" before every response.
const (
	StdoutLogBanner      = "Server listening on stdio"
	StdoutLogDebugPrefix = "debug: handling "
)

type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rawServer struct {
	mode   string
	stdout io.Writer
	stderr io.Writer
}

func runRaw(ctx context.Context, mode string, stdin io.Reader, stdout, stderr io.Writer) error {
	s := &rawServer{mode: mode, stdout: stdout, stderr: stderr}
	if err := writePid(); err != nil {
		return err
	}
	if err := s.hostileStart(); err != nil {
		return err
	}
	if os.Getenv(GroupChildVar) == "1" && mode != ModeSleeper && mode != ModeIgnoreSigterm {
		if err := s.startSleeper(); err != nil {
			return err
		}
	}
	switch mode {
	case ModeSleeper:
		signal.Ignore(syscall.SIGTERM)
		// Tell the parent that SIGTERM is now ignored.
		if _, err := io.WriteString(stdout, SleeperReady+"\n"); err != nil {
			return err
		}
		return hangForever(ctx)
	case ModeIgnoreSigterm:
		signal.Ignore(syscall.SIGTERM)
		if err := s.startSleeper(); err != nil {
			return err
		}
	case ModeStdoutLog:
		if _, err := io.WriteString(stdout, StdoutLogBanner+"\n"); err != nil {
			return err
		}
	case ModeDaemon:
		return runDaemon(ctx)
	case ModeDaemonLauncher:
		return runDaemonLauncher()
	case ModeDetachedHelper, ModeDaemonizedHelper, ModeQuietDaemon:
		if err := s.startHelper(); err != nil {
			return err
		}
	}

	lines := readLines(stdin)
	for {
		var line []byte
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok = <-lines:
		}
		if !ok {
			break // EOF
		}
		if err := s.handleLine(line); err != nil {
			return err
		}
	}
	switch mode {
	case ModeHang, ModeIgnoreSigterm:
		// These do not exit when stdin closes.
		return hangForever(ctx)
	}
	return nil
}

// readLines delivers stdin's lines (without the newline) until EOF or a read
// error, then closes the channel. A final line without a newline is delivered
// too.
func readLines(r io.Reader) <-chan []byte {
	ch := make(chan []byte)
	go func() {
		defer close(ch)
		br := bufio.NewReaderSize(r, 64*1024)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				ch <- bytes.TrimRight(line, "\r\n")
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

func hangForever(ctx context.Context) error {
	t := time.NewTimer(MaxHang)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("testserver: gave up hanging after %v", MaxHang)
	}
}

// SleeperReady is the line the sleeper mode writes on stdout once it
// ignores SIGTERM.
const SleeperReady = "sleeper ready"

// startSleeper re-executes the current executable in sleeper mode and waits
// until it ignores SIGTERM. The child stays in our process group (no
// Setpgid), so killing the group kills it too. Its stdin and stderr are
// /dev/null and its stdout is a pipe that we close once it is ready, so that
// it cannot keep the client's pipes open.
func (s *rawServer) startSleeper() error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("testserver: finding own executable: %w", err)
	}
	cmd := exec.Command(exe)
	// The pid file is the server's: the sleeper writes none.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, EnvVar+"=") || strings.HasPrefix(kv, PidFileVar+"=")
	})
	cmd.Env = append(env, EnvFor(ModeSleeper))
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("testserver: starting sleeper: %w", err)
	}
	ready := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(out).ReadString('\n')
		if err == nil && line != SleeperReady+"\n" {
			err = fmt.Errorf("unexpected line %q", line)
		}
		ready <- err
	}()
	select {
	case err = <-ready:
	case <-time.After(30 * time.Second):
		err = errors.New("timed out")
	}
	out.Close()
	go func() { _ = cmd.Wait() }() // reap it if it ever exits
	if err != nil {
		_ = cmd.Process.Kill()
		return fmt.Errorf("testserver: waiting for the sleeper: %w", err)
	}
	_, err = fmt.Fprintf(s.stderr, "child-pid=%d\n", cmd.Process.Pid)
	return err
}

func (s *rawServer) handleLine(line []byte) error {
	var msg rpcMessage
	if err := json.Unmarshal(line, &msg); err != nil {
		if s.mode == ModeHang {
			return nil
		}
		return s.writeError(json.RawMessage("null"), "", codeParseError, "parse error")
	}
	if msg.Method == "" || len(msg.ID) == 0 {
		return nil // a notification or a response: ignore
	}
	return s.handleRequest(msg)
}

func (s *rawServer) handleRequest(req rpcMessage) error {
	id, method := req.ID, req.Method
	if done, err := s.hostileRequest(req); done {
		return err
	}
	if done, err := s.trialRequest(req); done {
		return err
	}
	if done, err := s.listFailRequest(req); done {
		return err
	}
	switch s.mode {
	case ModeHang:
		return nil
	case ModeCrashHandshake:
		if method == "initialize" {
			io.WriteString(s.stderr, CrashHandshakeStderr)
			return &ExitError{Code: CrashHandshakeExitCode}
		}
	case ModeHangLists:
		if method == "tools/list" {
			if path := os.Getenv(ListingFileVar); path != "" {
				return os.WriteFile(path, []byte("tools/list\n"), 0o644)
			}
			return nil
		}
	case ModeProbeWrong, ModeProbeHang, ModeProbeHuge:
		if done, err := s.probeRequest(req); done {
			return err
		}
	}

	switch method {
	case "initialize":
		return s.writeResult(id, method, s.initializeResult(req.Params))
	case "server/discover":
		return s.writeError(id, method, codeMethodNotFound, "method not found: server/discover")
	case "ping":
		return s.writeResult(id, method, json.RawMessage(`{}`))
	case "tools/list":
		return s.toolsList(id, cursorOf(req.Params))
	case "tools/call":
		return s.writeResult(id, method, json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`))
	}
	if s.mode == ModeSubscribeUnimplemented {
		switch method {
		case "resources/list":
			return s.writeResult(id, method, json.RawMessage(`{"resources":[{"name":"readme","uri":"file:///readme.md","mimeType":"text/markdown"}]}`))
		case "resources/templates/list":
			return s.writeResult(id, method, json.RawMessage(`{"resourceTemplates":[]}`))
		}
	}
	if s.mode == ModeUnidentifiedResource {
		switch method {
		case "resources/list":
			return s.writeResult(id, method, json.RawMessage(`{"resources":[{}]}`))
		case "resources/templates/list":
			return s.writeResult(id, method, json.RawMessage(`{"resourceTemplates":[]}`))
		}
	}
	if s.mode == ModePagedRaw {
		switch method {
		case "prompts/list":
			return s.writeResult(id, method, json.RawMessage(pagedRawPrompts))
		case "resources/list":
			return s.writeResult(id, method, json.RawMessage(pagedRawResources))
		case "resources/templates/list":
			return s.writeResult(id, method, json.RawMessage(pagedRawTemplates))
		}
	}
	return s.writeError(id, method, codeMethodNotFound, "method not found: "+method)
}

func cursorOf(params json.RawMessage) string {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Cursor
}

// negotiatedVersion is the protocol version an initialize with params is
// answered with: the requested one when the raw modes know it, unless
// newest says to answer the newest whatever was asked.
func negotiatedVersion(params json.RawMessage, newest bool) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	if !newest && slices.Contains(rawProtocolVersions, p.ProtocolVersion) {
		return p.ProtocolVersion
	}
	return latestRawProtocolVersion
}

func (s *rawServer) initializeResult(params json.RawMessage) any {
	version := negotiatedVersion(params, s.mode == ModeNewestOnly)
	caps := json.RawMessage(`{"tools":{}}`)
	switch s.mode {
	case ModePagedRaw, ModeCapabilityUnimplemented:
		caps = json.RawMessage(`{"tools":{},"prompts":{},"resources":{}}`)
	case ModeSubscribeUnimplemented:
		caps = json.RawMessage(`{"tools":{},"resources":{"subscribe":true}}`)
	case ModeUnidentifiedResource:
		caps = json.RawMessage(`{"tools":{},"resources":{}}`)
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    caps,
		"serverInfo":      map[string]string{"name": "testserver-" + s.mode, "version": ServerVersion},
	}
}

// liteTools is the tools/list page of ignore-sigterm, stdout-log and
// hang-lists (were it ever answered).
const liteTools = `[` +
	`{"name":"echo","description":"Echo the message back.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]},"annotations":{"readOnlyHint":true}},` +
	`{"name":"add","title":"Add numbers","description":"Add two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}` +
	`]`

// sdkRejectTools: one valid tool, one whose inputSchema is not an object
// schema (the go-sdk client accepts it, the MCP schema does not), and one
// whose annotations.readOnlyHint is a string, which makes the go-sdk client's
// ListTools fail to decode the whole result.
const sdkRejectTools = `[` +
	`{"name":"get_time","description":"Current time in UTC.","inputSchema":{"type":"object","properties":{}}},` +
	`{"name":"string_schema","description":"Input schema is not an object schema.","inputSchema":{"type":"string"}},` +
	`{"name":"bad_annotations","description":"readOnlyHint is a string.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}` +
	`]`

const duplicateTools = `[` +
	`{"name":"search","description":"Search the web.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}},` +
	`{"name":"search","description":"Search local files.","inputSchema":{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"]}}` +
	`]`

// Cursors and pages of paged-raw's tools/list.
const (
	PagedRawCursor2 = "b3BhcXVlOnBhZ2U9Mg"
	PagedRawCursor3 = "b3BhcXVlOnBhZ2U9Mw"
)

var pagedRawToolPages = map[string]string{
	"": `{"tools":[` +
		`{"name":"alpha","description":"First tool.","inputSchema":{"type":"object","properties":{"x":{"type":"integer"}}}},` +
		`{"name":"bravo","description":"Second tool.","inputSchema":{"type":"object"}}` +
		`],"nextCursor":"` + PagedRawCursor2 + `","_meta":{"com.example/page":1}}`,
	PagedRawCursor2: `{"tools":[` +
		`{"name":"charlie","description":"Third tool, with a vendor extension field.","inputSchema":{"type":"object","properties":{"y":{"type":"string","enum":["a","b"]}},"required":["y"]},"x-vendor":{"cost":3,"tier":"gold"}},` +
		`{"name":"delta","title":"Delta","description":"Fourth tool.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}}` +
		`],"nextCursor":"` + PagedRawCursor3 + `","_meta":{"com.example/page":2}}`,
	PagedRawCursor3: `{"tools":[` +
		`{"name":"echo","description":"Fifth and last tool.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}},"outputSchema":{"type":"object","properties":{"message":{"type":"string"}}}}` +
		`],"_meta":{"com.example/page":3}}`,
}

const pagedRawPrompts = `{"prompts":[` +
	`{"name":"greet","description":"Greet someone.","arguments":[{"name":"name","required":true},{"name":"language","description":"ISO 639-1 code."}]},` +
	`{"name":"summarize","arguments":[{"name":"text","required":true}]}` +
	`]}`

const pagedRawResources = `{"resources":[` +
	`{"uri":"test://raw/motd.txt","name":"motd","mimeType":"text/plain"},` +
	`{"uri":"test://raw/data.bin","name":"data","mimeType":"application/octet-stream","size":1024}` +
	`]}`

const pagedRawTemplates = `{"resourceTemplates":[` +
	`{"uriTemplate":"test://raw/items/{id}","name":"item","mimeType":"application/json"}` +
	`]}`

func (s *rawServer) toolsList(id json.RawMessage, cursor string) error {
	const method = "tools/list"
	switch s.mode {
	case ModeInvalidJSON:
		return s.writeLine(method, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"tools":[{"name":"a"`))
	case ModeHuge:
		// Written directly: re-marshalling 22 MB is slow under -race.
		return s.writeLine(method, slices.Concat([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"result":`), hugeToolsResult(), []byte(`}`)))
	case ModeRepeatCursor:
		return s.writeResult(id, method, json.RawMessage(`{"tools":[{"name":"echo","description":"Echo.","inputSchema":{"type":"object"}}],"nextCursor":"`+RepeatCursor+`"}`))
	case ModeEndlessPages:
		n := 0
		if cursor != "" {
			v, err := strconv.Atoi(strings.TrimPrefix(cursor, "c"))
			if err != nil || !strings.HasPrefix(cursor, "c") || v < 1 {
				return s.writeError(id, method, codeInvalidParams, "invalid cursor")
			}
			n = v
		}
		return s.writeResult(id, method, json.RawMessage(fmt.Sprintf(
			`{"tools":[{"name":"tool_%d","description":"Tool on page %d.","inputSchema":{"type":"object"}}],"nextCursor":"c%d"}`, n, n, n+1)))
	case ModeDuplicateName:
		return s.writeResult(id, method, json.RawMessage(`{"tools":`+duplicateTools+`}`))
	case ModeSDKReject:
		return s.writeResult(id, method, json.RawMessage(`{"tools":`+sdkRejectTools+`}`))
	case ModePagedRaw:
		page, ok := pagedRawToolPages[cursor]
		if !ok {
			return s.writeError(id, method, codeInvalidParams, "invalid cursor")
		}
		return s.writeResult(id, method, json.RawMessage(page))
	}
	return s.writeResult(id, method, json.RawMessage(`{"tools":`+liteTools+`}`))
}

// hugeToolsResult is one tools/list page of HugeToolCount tools, each with a
// HugeDescriptionLen-byte description (about 22 MB in all).
func hugeToolsResult() json.RawMessage {
	var b bytes.Buffer
	b.Grow(HugeToolCount * (HugeDescriptionLen + 100))
	b.WriteString(`{"tools":[`)
	for i := range HugeToolCount {
		if i > 0 {
			b.WriteByte(',')
		}
		head := fmt.Sprintf("Tool %05d. ", i)
		desc := head + strings.Repeat("x", HugeDescriptionLen-len(head))
		fmt.Fprintf(&b, `{"name":"tool_%05d","description":"%s","inputSchema":{"type":"object"}}`, i, desc)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func (s *rawServer) writeResult(id json.RawMessage, method string, result any) error {
	line, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
	if err != nil {
		return err
	}
	return s.writeLine(method, line)
}

func (s *rawServer) writeError(id json.RawMessage, method string, code int, message string) error {
	line, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message}})
	if err != nil {
		return err
	}
	return s.writeLine(method, line)
}

// writeLine writes one response line, preceded in stdout-log mode by a debug
// line. Each line goes out in a single Write.
func (s *rawServer) writeLine(method string, line []byte) error {
	if s.mode == ModeStdoutLog && method != "" {
		if _, err := io.WriteString(s.stdout, StdoutLogDebugPrefix+method+"\n"); err != nil {
			return err
		}
	}
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	_, err := s.stdout.Write(buf)
	if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
		return nil // the client went away; stop quietly at the next EOF
	}
	return err
}
