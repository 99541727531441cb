package capture_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// A list that fails is not fatal to Run: it is a list-error diagnostic
// with its page, and a ListFailure; -32601 on a first page is neither.
func TestListFailures(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mode string
		want []capture.ListFailure
	}{
		{testserver.ModeListFailed, []capture.ListFailure{{Method: capture.MethodToolsList, Page: 1, Code: -32603, Message: testserver.ListFailedMessage}}},
		{testserver.ModeListFailedPage, []capture.ListFailure{{Method: capture.MethodToolsList, Page: 2, Code: -32603, Message: testserver.ListFailedPageMessage}}},
		{testserver.ModeCapabilityUnimplemented, nil},
		{testserver.ModePagedRaw, nil},
	} {
		got, err := capture.Run(context.Background(), stdio(t, c.mode), capture.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
		fs := got.ListFailures()
		if len(fs) != len(c.want) || (len(fs) > 0 && fs[0] != c.want[0]) {
			t.Errorf("%s: ListFailures = %+v, want %+v", c.mode, fs, c.want)
		}
		if c.mode == testserver.ModeListFailedPage && len(got.PagesOf(capture.MethodToolsList)) != 1 {
			t.Errorf("%s: the first page was not recorded", c.mode)
		}
	}
}

// The error names every failure, quoted, and says what to fix.
func TestIncompleteError(t *testing.T) {
	long := strings.Repeat("x", 1000)
	err := error(&capture.IncompleteError{Failures: []capture.ListFailure{
		{Method: capture.MethodToolsList, Page: 1, Code: -32603, Message: "db\x1b[2Jdown"},
		{Method: capture.MethodPromptsList, Page: 3, Code: -32000, Message: long},
	}})
	msg := err.Error()
	for _, want := range []string{`tools/list page 1 answered with error -32603 "db\x1b[2Jdown"`, "prompts/list page 3 answered with error -32000", "backend", "unknown, not empty"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.ContainsRune(msg, '\x1b') {
		t.Errorf("raw escape in %q", msg)
	}
	var ie *capture.IncompleteError
	if !errors.As(err, &ie) {
		t.Error("not an IncompleteError")
	}
}
