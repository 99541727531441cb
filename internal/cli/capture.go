package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// captureFlags are the flags of every command that talks to a live server.
type captureFlags struct {
	url            string
	headers        stringList
	sse            bool
	versions       stringList
	startupTimeout time.Duration
	requestTimeout time.Duration
	maxBytes       int64
	maxPages       int
	cwd            string
	envs           stringList
	shell          bool
	frames         string
}

func (cf *captureFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&cf.url, "url", "", "capture a server over streamable HTTP at this URL instead of running a command")
	fs.Var(&cf.headers, "header", "HTTP header `'Name: value'` for --url (repeatable); ${VAR} in the value is read from the environment, values are never printed")
	fs.BoolVar(&cf.sse, "sse", false, "with --url: use the legacy HTTP+SSE transport")
	fs.Var(&cf.versions, "protocol-version", "protocol `revision` to request (repeatable: one capture per revision; default "+capture.LatestRevision+")")
	fs.DurationVar(&cf.startupTimeout, "startup-timeout", capture.DefaultLimits.StartupTimeout, "bound on launch plus handshake")
	fs.DurationVar(&cf.requestTimeout, "request-timeout", capture.DefaultLimits.RequestTimeout, "bound on each request after the handshake")
	fs.Int64Var(&cf.maxBytes, "max-bytes", capture.DefaultLimits.MaxBytes, "bound on the total `bytes` received from the server")
	fs.IntVar(&cf.maxPages, "max-pages", capture.DefaultLimits.MaxPages, "bound on the pages read per list")
	fs.StringVar(&cf.cwd, "cwd", "", "working `directory` of the server command")
	fs.Var(&cf.envs, "env", "`NAME=value` added to the server's environment (repeatable)")
	fs.BoolVar(&cf.shell, "shell", false, "run the server command through /bin/sh -c")
	fs.StringVar(&cf.frames, "frames", "", "also write every raw JSON-RPC frame to this `file` as JSON lines")
}

// target builds the capture target from the flags and the command after --.
func (cf *captureFlags) target(env *Env, cmd []string) (capture.Target, error) {
	if cf.url != "" {
		if len(cmd) > 0 {
			return nil, usagef("give either --url or a command after --, not both")
		}
		h := http.Header{}
		for _, raw := range cf.headers {
			name, value, ok := strings.Cut(raw, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" {
				return nil, usagef("--header %q: use 'Name: value'", name)
			}
			var missing []string
			value = os.Expand(strings.TrimSpace(value), func(k string) string {
				v := env.Getenv(k)
				if v == "" {
					missing = append(missing, k)
				}
				return v
			})
			if len(missing) > 0 {
				return nil, usagef("--header %s: environment variable %s is not set", name, strings.Join(missing, ", "))
			}
			h.Add(name, value)
		}
		return capture.HTTP{URL: cf.url, Headers: h, SSE: cf.sse}, nil
	}
	if cf.sse || len(cf.headers) > 0 {
		return nil, usagef("--sse and --header need --url")
	}
	if len(cmd) == 0 {
		return nil, usagef("no server given: pass the command after -- (mcp-surface capture -- node server.js) or use --url")
	}
	return capture.Command{Argv: cmd, Shell: cf.shell, Env: serverEnv(env, cf.envs), Dir: cf.cwd}, nil
}

// serverEnv is the environment a server command runs with: ours, plus --env.
func serverEnv(env *Env, extra []string) []string {
	var out []string
	if env.Environ != nil {
		out = env.Environ()
	}
	return append(slices.Clone(out), extra...)
}

func (cf *captureFlags) limits() capture.Limits {
	return capture.Limits{
		StartupTimeout: cf.startupTimeout, RequestTimeout: cf.requestTimeout,
		MaxBytes: cf.maxBytes, MaxPages: cf.maxPages,
	}
}

func (cf *captureFlags) options(version string) capture.Options {
	return capture.Options{
		ProtocolVersion: version, Limits: cf.limits(),
		ClientName: "mcp-surface", ClientVersion: Version, Now: time.Now,
	}
}

func (cf *captureFlags) revisions() ([]string, error) {
	if len(cf.versions) == 0 {
		return []string{capture.LatestRevision}, nil
	}
	var out []string
	for _, v := range cf.versions {
		if !slices.Contains(capture.Revisions, v) {
			return nil, usagef("--protocol-version %q: use one of %s", v, strings.Join(capture.Revisions, ", "))
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// captureAll runs one capture per requested revision. On failure it
// returns the captures made so far (the failed one included, partial) and
// the error. --frames is written either way.
func (cf *captureFlags) captureAll(ctx context.Context, env *Env, cmd []string) ([]*capture.Capture, error) {
	t, err := cf.target(env, cmd)
	if err != nil {
		return nil, err
	}
	revs, err := cf.revisions()
	if err != nil {
		return nil, err
	}
	if cf.maxPages < 1 || cf.maxBytes < 1 || cf.startupTimeout <= 0 || cf.requestTimeout <= 0 {
		return nil, usagef("--max-pages, --max-bytes, --startup-timeout and --request-timeout must be positive")
	}
	var caps []*capture.Capture
	var runErr error
	for _, v := range revs {
		c, err := capture.Run(ctx, t, cf.options(v))
		if c != nil {
			caps = append(caps, c)
		}
		if err != nil {
			runErr = withHint(fmt.Errorf("capturing %s at %s: %w", t.Describe(), v, err), flagHint)
			break
		}
	}
	if cf.frames != "" {
		if err := writeFrames(cf.frames, caps); err != nil {
			return caps, errors.Join(runErr, fmt.Errorf("writing --frames: %w", err))
		}
	}
	return caps, runErr
}

// writeFrames writes every frame as one JSON line:
// {"revision":..., "seq":..., "dir":"send"|"recv", "data":<the raw frame>}.
func writeFrames(path string, caps []*capture.Capture) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, c := range caps {
		for _, fr := range c.Frames {
			line, err := json.Marshal(struct {
				Revision string          `json:"revision"`
				Seq      int             `json:"seq"`
				Dir      string          `json:"dir"`
				Data     json.RawMessage `json:"data"`
			}{c.RequestedVersion, fr.Seq, string(fr.Dir), fr.Data})
			if err != nil {
				f.Close()
				return err
			}
			w.Write(line)
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// reportDiagnostics prints what a capture noticed to stderr.
func reportDiagnostics(w io.Writer, c *capture.Capture) {
	for _, d := range c.Diagnostics {
		fmt.Fprintf(w, "warning: %s\n", sanitizeLine(d.Message))
		if d.Detail != "" {
			fmt.Fprintf(w, "  %s\n", sanitizeLine(d.Detail))
		}
	}
}

// sanitizeLine makes server text safe for a terminal: control characters
// (ANSI escapes included) are shown as \x.. escapes.
func sanitizeLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "\\x%02x", r)
		case r == 0x200b || r == 0x200c || r == 0x200d || r == 0x2060 || r == 0xfeff ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func summarize(c *capture.Capture, m *manifest.Manifest) string {
	pages := len(c.Pages)
	return fmt.Sprintf("%s: protocol %s via %s; %s, %s, %s, %s (%s)",
		c.Target, c.ProtocolVersion, c.Handshake, plural(len(m.Tools), "tool"), plural(len(m.Prompts), "prompt"),
		plural(len(m.Resources), "resource"), plural(len(m.ResourceTemplates), "resource template"), plural(pages, "page"))
}

// outputPath inserts the revision before the extension when several
// revisions are captured: mcp-surface.json → mcp-surface.2025-06-18.json.
func outputPath(path, rev string, several bool) string {
	if !several {
		return path
	}
	if strings.Contains(path, "{version}") {
		return strings.ReplaceAll(path, "{version}", rev)
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "." + rev + ext
}

func runCapture(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("capture", "[flags] (-- CMD ARGS... | --url URL)", env.Stderr)
	var cf captureFlags
	cf.register(fs)
	out := fs.String("o", "", "write the snapshot to this `file` (default stdout)")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q: put the server command after --", fs.Arg(0))
	}
	revs, err := cf.revisions()
	if err != nil {
		return 0, err
	}
	if len(revs) > 1 && *out == "" {
		return 0, usagef("several --protocol-version values need -o FILE (one snapshot per revision: FILE.<revision>.json)")
	}
	caps, err := cf.captureAll(ctx, env, cmd)
	if err != nil {
		return 0, err
	}
	for _, c := range caps {
		reportDiagnostics(env.Stderr, c)
		m, err := manifest.Build(c)
		if err != nil {
			return 0, fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
		}
		if *out == "" {
			data, err := manifest.Encode(m)
			if err != nil {
				return 0, err
			}
			if _, err := env.Stdout.Write(data); err != nil {
				return 0, err
			}
		} else {
			path := outputPath(*out, c.RequestedVersion, len(revs) > 1)
			if err := manifest.WriteFile(path, m); err != nil {
				return 0, err
			}
			fmt.Fprintf(env.Stderr, "wrote %s\n", path)
		}
		fmt.Fprintln(env.Stderr, sanitizeLine(summarize(c, m)))
	}
	return ExitOK, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// httpHeaders returns the headers of an HTTP target (after environment
// expansion), nil for other targets.
func httpHeaders(t capture.Target) http.Header {
	if h, ok := t.(capture.HTTP); ok {
		return h.Headers
	}
	return nil
}
