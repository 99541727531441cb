package sharedtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
)

// DataEnv names a directory laid out like the project's shared test data:
// mcp-schema/<revision>/schema.json and sarif/sarif-schema-2.1.0.json.
const DataEnv = "MCP_SURFACE_TEST_DATA"

// downloadTimeout bounds one download of test data: a test run without
// network must fail in seconds, not hang.
const downloadTimeout = 20 * time.Second

// maxDataBytes bounds a downloaded file; the largest is under 200 KiB.
const maxDataBytes = 16 << 20

// RepoRoot is the directory holding go.mod, found from the working
// directory (a test's package directory) upwards.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// Root is RepoRoot for a test, which fails when there is none.
func Root(t testing.TB) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// dataDir is $MCP_SURFACE_TEST_DATA made absolute (tests chdir), or ""
// when it is not set.
func dataDir() (string, error) {
	d := os.Getenv(DataEnv)
	if d == "" {
		return "", nil
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("$%s: %w", DataEnv, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("$%s is %q, which is not a directory", DataEnv, d)
	}
	return abs, nil
}

// cacheRoot is the product's cache directory: $RUNNER_TOOL_CACHE in
// GitHub Actions, the user's cache directory elsewhere (what the CLI uses,
// so that `mcp-surface schemas fetch` fills it for the tests too).
func cacheRoot() (string, error) {
	if d := os.Getenv("RUNNER_TOOL_CACHE"); d != "" {
		return filepath.Join(d, "mcp-surface"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory: %w", err)
	}
	return filepath.Join(d, "mcp-surface"), nil
}

// lookup finds the test data ue names: under $MCP_SURFACE_TEST_DATA
// (inData, given that directory; a directory the user named is the answer
// or an error, since falling through to the cache would hide a mistake in
// it), else through the cache (fromCache, which adds to ue.Tried what it
// tried). rootErr is why there is no cache, if there is none.
func lookup(ue *UnavailableError, rootErr error, inData func(data string) (string, error), fromCache func() (string, bool)) (string, error) {
	data, err := dataDir()
	if err != nil {
		ue.Tried = append(ue.Tried, err.Error())
		return "", ue
	}
	if data != "" {
		path, err := inData(data)
		if err != nil {
			ue.Tried = append(ue.Tried, fmt.Sprintf("$%s: %v", DataEnv, err))
			return "", ue
		}
		return path, nil
	}
	ue.Tried = append(ue.Tried, fmt.Sprintf("$%s: not set", DataEnv))
	if rootErr != nil {
		ue.Tried = append(ue.Tried, "the cache: "+rootErr.Error())
		return "", ue
	}
	if path, ok := fromCache(); ok {
		return path, nil
	}
	return "", ue
}

// Client downloads test data with short timeouts: where the network is
// closed a test fails quickly with the reason instead of hanging.
func Client() *http.Client {
	return &http.Client{
		Timeout: downloadTimeout,
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			TLSHandshakeTimeout:   5 * time.Second,
			ResponseHeaderTimeout: 10 * time.Second,
		},
	}
}

// Context bounds the whole lookup of one kind of test data.
func Context() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 2*downloadTimeout)
}

// UnavailableError says that test data could be found nowhere, what was
// tried, and how to provide it.
type UnavailableError struct {
	What  string   // "the published MCP schemas"
	Tried []string // each source and why it failed, in order
	Fix   string   // how to provide the data
}

func (e *UnavailableError) Error() string {
	msg := fmt.Sprintf("test data: could not get %s", e.What)
	for _, t := range e.Tried {
		msg += "\n  tried " + t
	}
	return msg + "\n" + e.Fix
}

// fixText is the part of the message every kind of test data shares.
func fixText(extra string) string {
	return fmt.Sprintf("fix: set %s to a directory laid out as mcp-schema/<revision>/schema.json and sarif/sarif-schema-2.1.0.json, %s", DataEnv, extra)
}

var (
	failedMu sync.Mutex
	failed   = map[string]string{} // what → the test that reported it
)

// Require stops a test that needs test data which could not be had (err
// from MCPSchemaDir or SARIFSchema). The first test of the package to ask
// fails with the whole reason; later ones are skipped and name that test,
// so a run without the data reads as one failure with one message rather
// than one per test. It does nothing when err is nil.
func Require(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	what := err.Error()
	var ue *UnavailableError
	if errors.As(err, &ue) {
		what = ue.What
	}
	failedMu.Lock()
	first, seen := failed[what]
	if !seen {
		failed[what] = t.Name()
	}
	failedMu.Unlock()
	if seen {
		t.Skipf("skipped: could not get %s (%s failed and says how to provide it)", what, first)
	}
	t.Fatal(err)
}

// sha256Hex is the hex SHA-256 of data.
func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// readBounded reads a file of at most maxDataBytes.
func readBounded(path string) ([]byte, error) {
	return infile.Read(context.Background(), path, "a published data file", maxDataBytes)
}

// download fetches url with Client.
func download(ctx context.Context, url string) ([]byte, error) {
	return infile.Get(ctx, Client(), url, maxDataBytes)
}

// writeAtomic writes data to path through a temporary file and a rename,
// so that a test running in parallel never reads half a file.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
