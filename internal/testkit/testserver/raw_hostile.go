package testserver

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Raw modes of hostile and confused servers: output written to forge the
// runner's workflow commands and terminal escapes, answers that hide the
// real cause of a failure behind the server's exit, and bytes that a JSON
// parser silently repairs (duplicate keys, invalid UTF-8, batches).
const (
	// ModeHostileStderr writes workflow commands and escapes to stderr,
	// then exits with HostileExitCode when asked to initialize.
	ModeHostileStderr = "hostile-stderr"
	// ModeInvalidJSONCR answers tools/list with a line that is not JSON
	// and holds a \r followed by a workflow command.
	ModeInvalidJSONCR = "invalid-json-cr"
	// ModeHostileNoise writes workflow commands and escapes on stdout
	// (stdout noise) before its answers, and a JSON log line.
	ModeHostileNoise = "hostile-noise"
	// ModeHostileNames serves tools whose names and descriptions hold
	// workflow commands and escapes.
	ModeHostileNames = "hostile-names"
	// ModeSlowStart never answers initialize and exits 0 when its stdin
	// closes, as most servers do.
	ModeSlowStart = "slow-start"
	// ModeBadVersion answers initialize with protocolVersion
	// BadProtocolVersion.
	ModeBadVersion = "bad-version"
	// ModeBadInitialize answers initialize with capabilities that are a
	// string, which the SDK's client cannot decode.
	ModeBadInitialize = "bad-initialize"
	// ModeJSONLog writes logrus-style JSON log lines (with method, id,
	// error and result members, but no "jsonrpc") on stdout before every
	// answer.
	ModeJSONLog = "json-log"
	// ModeBatchReply answers tools/list inside a JSON-RPC batch.
	ModeBatchReply = "batch-reply"
	// ModeInvalidUTF8 serves a tool whose description holds a byte that
	// is not UTF-8.
	ModeInvalidUTF8 = "bad-utf8"
	// ModeDuplicateKey serves a tool object that names "name" twice:
	// DuplicateKeyFirst, then DuplicateKeyLast.
	ModeDuplicateKey = "duplicate-key"
)

// PidFileVar names a file the raw modes write their pid to at startup,
// so that a test can check that nothing is left running.
const PidFileVar = "MCP_SURFACE_TESTSERVER_PID_FILE"

// ListingFileVar names a file that hang-lists writes when it receives
// tools/list (which it never answers): the handshake is over and the
// server is serving.
const ListingFileVar = "MCP_SURFACE_TESTSERVER_LISTING_FILE"

// GroupChildVar is a variable that, set to 1, makes a raw mode start a
// child in its process group (the sleeper, which ignores SIGTERM) before
// it reads requests: a server whose group has more than its leader.
const GroupChildVar = "MCP_SURFACE_TESTSERVER_GROUP_CHILD"

// Forged is the text the hostile modes try to get obeyed. A test that
// reads the runner's log finds it only after one of our escapes.
const (
	ForgedError = "::error::forged by the server"
	ForgedMask  = "::add-mask::forged"
	ForgedStop  = "::stop-commands::forged"
	ForgedOld   = "##[error]forged by the server"
	// ForgedANSI is a colour escape and an OSC 8 hyperlink.
	ForgedANSI = "\x1b[31mred\x1b[0m \x1b]8;;https://example.invalid\x07link\x1b]8;;\x07"
)

// HostileExitCode is hostile-stderr's exit status.
const HostileExitCode = 4

// BadProtocolVersion is what bad-version answers initialize with.
const BadProtocolVersion = "1999-01-01"

// The two values of the duplicated "name" of duplicate-key.
const (
	DuplicateKeyFirst = "safe_read"
	DuplicateKeyLast  = "delete_everything"
)

// JSONLogLine is one of json-log's stdout lines.
const JSONLogLine = `{"level":"info","method":"GET","id":7,"error":null,"result":"ok","msg":"request served"}`

func hostileStderr() string {
	return "starting\n" + ForgedError + "\n  " + ForgedMask + "\n" + ForgedStop + "\n" + ForgedOld + "\n" +
		"\r" + ForgedError + "\n" + ForgedANSI + "\n"
}

// writePid writes the process's pid where PidFileVar says.
func writePid() error {
	path := os.Getenv(PidFileVar)
	if path == "" {
		return nil
	}
	return os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// hostileStart is what a hostile mode does before reading requests.
func (s *rawServer) hostileStart() error {
	switch s.mode {
	case ModeHostileNoise:
		_, err := io.WriteString(s.stdout, ForgedError+"\n"+ForgedOld+"\n"+ForgedANSI+"\n")
		return err
	case ModeJSONLog:
		_, err := io.WriteString(s.stdout, JSONLogLine+"\n")
		return err
	}
	return nil
}

// hostileRequest answers the requests a hostile mode treats its own way.
func (s *rawServer) hostileRequest(req rpcMessage) (bool, error) {
	id, method := req.ID, req.Method
	if s.mode == ModeHostileNoise || s.mode == ModeJSONLog {
		line := "  " + ForgedStop + "\n" + ForgedANSI + "\n"
		if s.mode == ModeJSONLog {
			line = JSONLogLine + "\n"
		}
		if _, err := io.WriteString(s.stdout, line); err != nil {
			return true, err
		}
		return false, nil
	}
	switch {
	case s.mode == ModeHostileStderr && method == "initialize":
		io.WriteString(s.stderr, hostileStderr())
		return true, &ExitError{Code: HostileExitCode}
	case s.mode == ModeSlowStart && method == "initialize":
		return true, nil
	case s.mode == ModeBadVersion && method == "initialize":
		return true, s.writeResult(id, method, map[string]any{
			"protocolVersion": BadProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]string{"name": "testserver-" + s.mode, "version": ServerVersion},
		})
	case s.mode == ModeBadInitialize && method == "initialize":
		return true, s.writeResult(id, method, map[string]any{
			"protocolVersion": "2025-06-18", "capabilities": "none",
			"serverInfo": map[string]string{"name": "testserver-" + s.mode, "version": ServerVersion},
		})
	case method != "tools/list":
		return false, nil
	}
	switch s.mode {
	case ModeInvalidJSONCR:
		return true, s.writeLine(method, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"tools":[{"name":"a`+"\r"+ForgedError+ForgedANSI+`"`))
	case ModeHostileNames:
		tools := []map[string]any{
			{"name": ForgedOld, "description": ForgedError + "\n" + ForgedANSI, "inputSchema": map[string]any{"type": "object"}},
			{"name": ForgedError, "description": "Forged.", "inputSchema": map[string]any{"type": "object"}},
			{"name": "x" + ForgedANSI, "description": "Escapes.", "inputSchema": map[string]any{"type": "object"}},
		}
		return true, s.writeResult(id, method, map[string]any{"tools": tools})
	case ModeBatchReply:
		line, err := json.Marshal([]any{map[string]any{"jsonrpc": "2.0", "id": id, "result": json.RawMessage(`{"tools":` + liteTools + `}`)}})
		if err != nil {
			return true, err
		}
		return true, s.writeLine(method, line)
	case ModeInvalidUTF8:
		return true, s.writeLine(method, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"tools":[`+
			`{"name":"read","description":"Read a file `+"\xff\xfe"+`.","inputSchema":{"type":"object"}}]}}`))
	case ModeDuplicateKey:
		return true, s.writeLine(method, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[`+
			`{"name":%q,"description":"Read a file.","inputSchema":{"type":"object","type":"object"},"name":%q}]}}`,
			id, DuplicateKeyFirst, DuplicateKeyLast)))
	}
	return false, nil
}
