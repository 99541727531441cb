package testserver

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StatelessHandler serves an SDK mode over stateless streamable HTTP, the
// one HTTP transport of the go-sdk that serves 2026-07-28: its
// server/discover lists the same revisions as the mode over stdio. (The
// stateful [Handler] lists only the revisions before 2026-07-28, which is
// what a session over it can use.)
func StatelessHandler(mode string) (http.Handler, error) {
	srv, err := New(mode)
	if err != nil {
		return nil, err
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}), nil
}
