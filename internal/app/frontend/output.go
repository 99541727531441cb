package frontend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

// StdoutPath is the output file name that means standard output.
const StdoutPath = "-"

// CheckOutput refuses, before any work, an output that cannot be written
// (a missing or read-only directory): a capture must not run for minutes
// to fail at the end. flagName names the flag in the message.
func CheckOutput(flagName, path string) error {
	if path == "" || path == StdoutPath {
		return nil
	}
	if err := outfile.Check(path); err != nil {
		return fmt.Errorf("%s: %w", flagName, err)
	}
	return nil
}

// WriteOutput writes data to path whole (outfile), or to stdout for "-".
func WriteOutput(ctx context.Context, stdout io.Writer, path string, data []byte) error {
	if path == StdoutPath {
		_, err := stdout.Write(data)
		return err
	}
	return outfile.Write(ctx, path, data)
}

// WriteFrames writes the raw frames of caps to path (stdout for "-"),
// when a path is given and capturing was attempted (caps not nil), with
// the secrets redacted, and adds its failure to err.
func WriteFrames(ctx context.Context, stdout io.Writer, path string, caps []*capture.Capture, secrets []string, err error) error {
	if path == "" || caps == nil {
		return err
	}
	// Frames received while a server shut down are in the file too.
	for _, c := range caps {
		c.Wait()
	}
	var ferr error
	if path == StdoutPath {
		ferr = capture.WriteFrames(stdout, caps, secrets)
	} else if f, cerr := outfile.Create(ctx, path); cerr != nil {
		ferr = cerr
	} else if ferr = capture.WriteFrames(f, caps, secrets); ferr != nil {
		f.Abort()
	} else {
		ferr = f.Commit()
	}
	if ferr != nil {
		return errors.Join(err, fmt.Errorf("writing --frames: %w", ferr))
	}
	return err
}

// WriteDiagnostics prints what a capture noticed, each line escaped as a
// log line. The fallback from server/discover to initialize is how
// today's servers answer, an info line (check and validate call it a
// note), not a warning.
func WriteDiagnostics(w io.Writer, c *capture.Capture) {
	for _, d := range c.Diagnostics {
		prefix := "warning"
		if d.Code == capture.DiagHandshakeFallback {
			prefix = "info"
		}
		fmt.Fprintf(w, "%s: %s\n", prefix, report.LogLine(d.Message, report.MaxText))
		if d.Detail != "" {
			fmt.Fprintf(w, "  %s\n", report.LogLine(d.Detail, report.MaxText))
		}
	}
}

// Formats is every report format: the report package's own, and SARIF.
var Formats = func() report.Renderers {
	rs := report.Builtin()
	rs["sarif"] = sarif.Render
	return rs
}()

// Output is one report written to a file besides stdout.
type Output struct {
	Format, Path string
}

// Emit renders r in format to stdout, and to every output file (without
// colour); the files are written first, stdout last.
func Emit(ctx context.Context, stdout io.Writer, format string, outputs []Output, r *report.Report, o report.Options) error {
	var out bytes.Buffer
	if err := Formats.Render(&out, format, r, o); err != nil {
		return err
	}
	for _, spec := range outputs {
		fo := o
		fo.Color = false
		data, err := Formats.RenderBytes(spec.Format, r, fo)
		if err != nil {
			return err
		}
		if err := WriteOutput(ctx, stdout, spec.Path, data); err != nil {
			return fmt.Errorf("--output %s=%s: %w", spec.Format, spec.Path, err)
		}
	}
	_, err := stdout.Write(out.Bytes())
	return err
}
