package testserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EnvVar is the environment variable read by [MaybeRunFromEnv]. When it is set
// to a mode name, the process serves that mode over stdio instead of doing
// whatever it normally does.
const EnvVar = "MCP_SURFACE_TESTSERVER"

// Server identity shared by every SDK mode (and reported, with a per-mode
// name, by the raw modes).
const (
	ServerName    = "mcp-surface-testserver"
	ServerTitle   = "mcp-surface test server"
	ServerVersion = "1.0.0"
)

// Mode names. The shuffled mode takes an integer seed as suffix
// ("shuffled-1", "shuffled-42", ...); see [ShuffledPrefix].
const (
	ModeFull      = "full"
	ModeToolsOnly = "tools-only"
	ModeBig       = "big"

	ModeCrashHandshake = "crash-handshake"
	ModeHang           = "hang"
	ModeHangLists      = "hang-lists"
	ModeIgnoreSigterm  = "ignore-sigterm"
	ModeStdoutLog      = "stdout-log"
	ModeInvalidJSON    = "invalid-json"
	ModeHuge           = "huge"
	ModeRepeatCursor   = "repeat-cursor"
	ModeEndlessPages   = "endless-pages"
	ModeDuplicateName  = "duplicate-name"
	ModeSDKReject      = "sdk-reject"
	ModePagedRaw       = "paged-raw"
	ModeSleeper        = "sleeper"
	// ModeCapabilityUnimplemented advertises prompts and resources but
	// answers their lists with -32601 Method not found.
	ModeCapabilityUnimplemented = "capability-unimplemented"
	// ModeSubscribeUnimplemented advertises resources.subscribe and lists
	// a resource, but answers resources/subscribe with -32601.
	ModeSubscribeUnimplemented = "subscribe-unimplemented"
	// ModeNewestOnly accepts only its newest raw revision: an initialize
	// asking for an older one is answered with the newest.
	ModeNewestOnly = "newest-only"
	// ModeUnidentifiedResource advertises tools and resources and answers
	// resources/list with [{}]: a placeholder resource with no uri and no
	// name (what a FastMCP server that registers an empty resource sends).
	ModeUnidentifiedResource = "unidentified-resource"

	// ShuffledPrefix followed by a decimal seed names a shuffled mode.
	ShuffledPrefix = "shuffled-"
)

var sdkModes = slices.Concat([]string{ModeFull, ModeToolsOnly, ModeBig, ShuffledPrefix + "1", ModeProbes, ModeRugPull}, extensionModes)

var rawModes = []string{
	ModeCrashHandshake, ModeHang, ModeHangLists, ModeIgnoreSigterm,
	ModeStdoutLog, ModeInvalidJSON, ModeHuge, ModeRepeatCursor,
	ModeEndlessPages, ModeDuplicateName, ModeSDKReject, ModePagedRaw,
	ModeSleeper, ModeProbeWrong, ModeProbeHang, ModeProbeHuge,
	ModeDetachedHelper, ModeDaemonizedHelper, ModeQuietDaemon, ModeDaemon, ModeDaemonLauncher,
	ModeHostileStderr, ModeInvalidJSONCR, ModeHostileNoise, ModeHostileNames,
	ModeSlowStart, ModeBadVersion, ModeBadInitialize, ModeJSONLog, ModeBatchReply, ModeInvalidUTF8, ModeDuplicateKey,
	ModeCapabilityUnimplemented, ModeSubscribeUnimplemented, ModeNewestOnly,
	ModeDiscoverUnlisted, ModeDiscoverRefusesUnlisted, ModeSubscribeWithdrawn,
	ModeListFailed, ModeListFailedPage, ModeUnidentifiedResource,
}

// Modes lists every mode. The shuffled family is represented by "shuffled-1";
// any "shuffled-N" with an integer N is accepted as well.
func Modes() []string {
	return slices.Concat(sdkModes, rawModes)
}

// SDKModes lists the well-behaved modes served by the go-sdk (the ones
// accepted by [New] and [Handler]).
func SDKModes() []string { return slices.Clone(sdkModes) }

// RawModes lists the misbehaving modes served by the raw JSON-RPC loop
// (stdio only).
func RawModes() []string { return slices.Clone(rawModes) }

// IsSDKMode reports whether mode is served by the go-sdk.
func IsSDKMode(mode string) bool {
	if _, ok := shuffledSeed(mode); ok {
		return true
	}
	return slices.Contains(sdkModes, mode)
}

// shuffledSeed parses "shuffled-N".
func shuffledSeed(mode string) (int64, bool) {
	rest, ok := strings.CutPrefix(mode, ShuffledPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// New returns a fresh go-sdk server for a well-behaved mode ("full",
// "tools-only", "big", "shuffled-N" or "probes").
func New(mode string) (*mcp.Server, error) {
	switch mode {
	case ModeFull:
		return newFull(nil), nil
	case ModeToolsOnly:
		return newToolsOnly(), nil
	case ModeBig:
		return newBig(), nil
	case ModeProbes:
		return newProbes(), nil
	case ModeRugPull:
		return newRugPull(), nil
	}
	if slices.Contains(extensionModes, mode) {
		return newExtensions(mode), nil
	}
	if seed, ok := shuffledSeed(mode); ok {
		return newFull(&seed), nil
	}
	if slices.Contains(rawModes, mode) {
		return nil, fmt.Errorf("testserver: mode %q is a raw (misbehaving) mode; it can only be served over stdio by RunStdio", mode)
	}
	return nil, fmt.Errorf("testserver: unknown mode %q", mode)
}

// ExitError is returned by [RunStdio] when the mode wants its process to exit
// with a particular status (for example crash-handshake exits with 3).
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("testserver: exit status %d", e.Code) }

// RunStdio serves mode over newline-delimited JSON-RPC on stdin/stdout until
// stdin reaches EOF (or ctx is done). Diagnostics go to stderr.
//
// SDK modes are served by the go-sdk. Raw modes are served by a small
// hand-written loop so that they can misbehave byte for byte. Some raw modes
// never return on their own (hang, ignore-sigterm, sleeper): they only return
// when ctx is done, and are meant to run in a dedicated process that the test
// kills. ignore-sigterm and sleeper also ignore SIGTERM process-wide, and
// ignore-sigterm re-executes the current executable as a child: only run them
// in a process that calls [MaybeRunFromEnv] first (cmd/testserver or a test
// binary whose TestMain does).
//
// A clean EOF on stdin returns nil. In SDK modes the EOF is held back until
// every request read so far has been answered (at most 5 s), so a client may
// write all its requests and close stdin at once. A mode that wants a specific exit status
// returns an [*ExitError].
func RunStdio(ctx context.Context, mode string, stdin io.Reader, stdout, stderr io.Writer) error {
	if IsSDKMode(mode) {
		srv, err := New(mode)
		if err != nil {
			return err
		}
		in, out := drainingStdio(stdin, stdout)
		t := &mcp.IOTransport{
			Reader: in,
			Writer: out,
			// The big mode's pages are small, but a client may send large
			// requests; accept whatever a test throws at us.
			MaxLineLength: -1,
		}
		err = srv.Run(ctx, t)
		if isCleanEOF(err) {
			return nil
		}
		return err
	}
	if !slices.Contains(rawModes, mode) {
		return fmt.Errorf("testserver: unknown mode %q", mode)
	}
	return runRaw(ctx, mode, stdin, stdout, stderr)
}

// isCleanEOF reports whether err is what the SDK returns when the client
// closes stdin.
func isCleanEOF(err error) bool {
	return err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed)
}

// Handler serves an SDK mode over HTTP: streamable HTTP when sse is false,
// the legacy HTTP+SSE transport when sse is true. One server instance backs
// every session of the returned handler.
func Handler(mode string, sse bool) (http.Handler, error) {
	srv, err := New(mode)
	if err != nil {
		return nil, err
	}
	get := func(*http.Request) *mcp.Server { return srv }
	if sse {
		return mcp.NewSSEHandler(get, nil), nil
	}
	return mcp.NewStreamableHTTPHandler(get, nil), nil
}

// EnvFor returns the environment entry ("MCP_SURFACE_TESTSERVER=mode") that
// makes a process calling [MaybeRunFromEnv] serve mode over stdio. Typical use
// in a test, re-executing the test binary itself:
//
//	func TestMain(m *testing.M) {
//		testserver.MaybeRunFromEnv()
//		os.Exit(m.Run())
//	}
//
//	cmd := exec.Command(os.Args[0])
//	cmd.Env = append(os.Environ(), testserver.EnvFor("full"))
func EnvFor(mode string) string { return EnvVar + "=" + mode }

// MaybeRunFromEnv serves the mode named by $MCP_SURFACE_TESTSERVER over
// os.Stdin/os.Stdout and exits the process; it returns only when the variable
// is unset or empty. The exit status is 0 after a clean EOF on stdin, the
// mode's own status for an [*ExitError], and 1 for other errors.
func MaybeRunFromEnv() {
	if path := os.Getenv(ToolsFileEnv); path != "" {
		os.Exit(runToolsFile(path))
	}
	mode := os.Getenv(EnvVar)
	if mode == "" {
		return
	}
	os.Exit(Main(mode))
}

// Main serves mode over the process's stdio and returns the exit status the
// process should use. It is the body of [MaybeRunFromEnv] and cmd/testserver.
func Main(mode string) int {
	err := RunStdio(context.Background(), mode, os.Stdin, os.Stdout, os.Stderr)
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	fmt.Fprintf(os.Stderr, "testserver %s: %v\n", mode, err)
	return 1
}
