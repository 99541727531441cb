package report

import (
	"context"

	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
)

// WriteFile writes data to path whole: a regular file is replaced by a
// rename, so a reader (an upload step, a second run) never sees half a
// report and a longer old file is never left with a stale tail; a device
// or FIFO is written in place (outfile).
func WriteFile(path string, data []byte) error {
	return outfile.Write(context.Background(), path, data)
}
