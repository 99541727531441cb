// Command rss measures the peak resident memory of mcp-surface commands:
// a capture of a server that sends close to the default --max-bytes, and
// a diff of two 50,000-tool snapshots.
//
// Each measurement runs in a fresh process (this program re-executed), which
// runs the command in process through internal/app/cli and then reads its own
// VmHWM from /proc/self/status: the figure is the command's peak, with
// nothing else of the benchmark in it. The server of the capture is this
// program too, in a process of its own that streams its pages, so its
// memory is not counted.
//
//	go run ./bench/rss                    # every case, 3 runs each
//	go run ./bench/rss -runs 5 -bytes 60000000 -page-bytes 4000000
//
// Linux only (it reads /proc).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/cli"
	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/benchsurface"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func main() {
	role := flag.String("role", "", "internal: serve, serve-http, gen, capture, capture-over, diff or idle")
	runs := flag.Int("runs", 3, "runs per case")
	total := flag.Int64("bytes", 62<<20, "bytes the capture's server sends in its tool pages (the default --max-bytes is 64 MiB)")
	pageBytes := flag.Int64("page-bytes", 1<<20, "bytes per tools/list page")
	tools := flag.Int("tools", 50000, "tools in each snapshot of the diff")
	out := flag.String("o", "", "internal: output file")
	memprofile := flag.String("memprofile", "", "with -role capture or diff: write a heap profile (allocations included) to this `file`")
	addr := flag.String("addr", "", "internal: with -role serve-http, the address to listen on")
	only := flag.String("only", "", "run only the cases whose name starts with this `word` (idle, capture or diff)")
	flag.Parse()
	var err error
	switch *role {
	case "serve":
		err = serve(os.Stdin, os.Stdout, *total, *pageBytes)
	case "serve-http":
		err = serveHTTP(*addr, *total, *pageBytes)
	case "gen":
		err = generate(*out, *tools, flag.Arg(0) == "changed")
	case "capture", "diff", "idle":
		err = measure(*role, flag.Args(), *memprofile, false)
	case "capture-over":
		err = measure(*role, flag.Args(), *memprofile, true)
	case "":
		err = runAll(*runs, *total, *pageBytes, *tools, *only)
	default:
		err = fmt.Errorf("unknown role %q", *role)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rss:", err)
		os.Exit(2)
	}
}

// runAll runs every case runs times, each in a fresh process, and prints
// the peaks in MiB.
func runAll(runs int, total, pageBytes int64, tools int, only string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "rss")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	if strings.HasPrefix("diff", only) {
		for _, g := range [][]string{{"-o", base}, {"-o", head, "changed"}} {
			if err := run(self, append([]string{"-role", "gen", "-tools", strconv.Itoa(tools)}, g...)...); err != nil {
				return err
			}
		}
	}
	server := []string{self, "-role", "serve", "-bytes", strconv.FormatInt(total, 10), "-page-bytes", strconv.FormatInt(pageBytes, 10)}
	snap := filepath.Join(dir, "capture.json")
	httpAddr, err := freeAddr()
	if err != nil {
		return err
	}
	cases := []struct {
		name string
		args []string
		// background is a server started before each run and stopped after.
		background []string
	}{
		{"idle (mcp-surface --version)", []string{"-role", "idle"}, nil},
		{fmt.Sprintf("capture, %d MiB in %d KiB pages", total>>20, pageBytes>>10),
			append([]string{"-role", "capture", "capture", "--protocol-version", "2025-11-25", "-o", snap, "--"}, server...), nil},
		{fmt.Sprintf("capture, %d MiB in one page", total>>20),
			append([]string{"-role", "capture", "capture", "--protocol-version", "2025-11-25", "-o", snap, "--"},
				self, "-role", "serve", "-bytes", strconv.FormatInt(total, 10), "-page-bytes", strconv.FormatInt(total, 10)), nil},
		{"capture stopped at the budget (80 MiB sent)",
			append([]string{"-role", "capture-over", "capture", "--protocol-version", "2025-11-25", "-o", snap + ".over", "--"},
				self, "-role", "serve", "-bytes", strconv.FormatInt(80<<20, 10), "-page-bytes", strconv.FormatInt(pageBytes, 10)), nil},
		{fmt.Sprintf("capture over HTTP, %d MiB in one page", total>>20),
			[]string{"-role", "capture", "capture", "--protocol-version", "2025-11-25", "-o", snap + ".http", "--url", "http://" + httpAddr + "/mcp"},
			[]string{"-role", "serve-http", "-addr", httpAddr, "-bytes", strconv.FormatInt(total, 10), "-page-bytes", strconv.FormatInt(total, 10)}},
		{fmt.Sprintf("diff, %d tools", tools), []string{"-role", "diff", "diff", "--format", "json", base, head}, nil},
	}
	fmt.Printf("go %s, GOMAXPROCS %d, %d runs each; peak RSS (VmHWM), MiB; the command's wall time in process, ms\n", runtime.Version(), runtime.GOMAXPROCS(0), runs)
	for _, c := range cases {
		if !strings.HasPrefix(c.name, only) {
			continue
		}
		var peaks, walls []float64
		for range runs {
			stop, err := startBackground(self, c.background, httpAddr)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			cmd := exec.Command(self, c.args...)
			// The 50,000-tool snapshots are larger than the default bound
			// on a snapshot file.
			cmd.Env = append(os.Environ(), "MCP_SURFACE_MAX_SNAPSHOT_BYTES=4000000000")
			cmd.Stderr = os.Stderr
			b, err := cmd.Output()
			stop()
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			var kb, ms float64
			if _, err := fmt.Sscan(lastLine(b), &kb, &ms); err != nil {
				return fmt.Errorf("%s: reading its peak: %w", c.name, err)
			}
			peaks, walls = append(peaks, kb/1024), append(walls, ms)
		}
		slices.Sort(peaks)
		slices.Sort(walls)
		fmt.Printf("%-40s median %6.1f  min %6.1f  max %6.1f  wall median %6.0f (%.0f–%.0f)\n", c.name,
			peaks[len(peaks)/2], peaks[0], peaks[len(peaks)-1], walls[len(walls)/2], walls[0], walls[len(walls)-1])
	}
	if fi, err := os.Stat(snap); err == nil {
		fmt.Printf("(the capture's snapshot: %.1f MiB)\n", float64(fi.Size())/(1<<20))
	}
	return nil
}

// freeAddr is a loopback address with a port nobody listens on now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// startBackground starts self with args (none: nothing to start), waits
// until addr accepts connections, and returns what stops and reaps it.
func startBackground(self string, args []string, addr string) (stop func(), err error) {
	if len(args) == 0 {
		return func() {}, nil
	}
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return stop, nil
		}
	}
	stop()
	return nil, fmt.Errorf("the server did not listen on %s within 10 s", addr)
}

func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// measure runs one mcp-surface command in this process and prints its
// peak RSS in KiB and its wall time in milliseconds as the last line of
// stdout. With mustFail the command
// is expected to fail (a capture stopped by its byte budget).
func measure(role string, args []string, memprofile string, mustFail bool) error {
	start := time.Now()
	if role != "idle" {
		env := &cli.Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: os.Getenv, Environ: os.Environ}
		if code := cli.RunEnv(context.Background(), args, env); (code == frontend.ExitFailure) != mustFail {
			if mustFail {
				return fmt.Errorf("%s did not stop at its byte budget", strings.Join(args, " "))
			}
			// Run again with the error visible.
			env.Stderr = os.Stderr
			cli.RunEnv(context.Background(), args, env)
			return fmt.Errorf("%s failed", strings.Join(args, " "))
		}
	} else {
		cli.RunEnv(context.Background(), []string{"--version"}, &cli.Env{Stdout: io.Discard, Stderr: io.Discard})
	}
	wall := time.Since(start)
	kb, err := vmHWM()
	if err != nil {
		return err
	}
	if memprofile != "" {
		f, err := os.Create(memprofile)
		if err != nil {
			return err
		}
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	fmt.Println(kb, wall.Milliseconds())
	return nil
}

func vmHWM() (int, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

// serve is a stdio MCP server whose tools/list sends total bytes of tools
// in pages of about pageBytes, built one tool at a time, so that its own
// memory stays small. Each tool is shaped like a real one (a description
// and a handful of typed, described parameters).
func serve(stdin io.Reader, stdout io.Writer, total, pageBytes int64) error {
	in := bufio.NewReaderSize(stdin, 64<<10)
	out := bufio.NewWriterSize(stdout, 256<<10)
	p := &pager{total: total, pageBytes: pageBytes}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return nil // EOF: the client is done
		}
		if !p.answer(line, out) {
			continue
		}
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// serveHTTP is the same server over streamable HTTP: each POST carries one
// message and is answered with one JSON body (202 for a notification).
func serveHTTP(addr string, total, pageBytes int64) error {
	p := &pager{total: total, pageBytes: pageBytes}
	var mu sync.Mutex
	return http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		out := bufio.NewWriterSize(w, 256<<10)
		w.Header().Set("Content-Type", "application/json")
		if !p.answer(body, out) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		_ = out.Flush()
	}))
}

// pager answers initialize and tools/list; its tools/list sends total
// bytes of tools in pages of about pageBytes, built one tool at a time,
// so that the server's own memory stays small.
type pager struct {
	total, pageBytes int64
	next             int // the next tool's number
	sent             int64
}

// answer writes the response to one message, and reports false for a
// message that wants none.
func (p *pager) answer(line []byte, out *bufio.Writer) bool {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Cursor string `json:"cursor"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &r) != nil || r.ID == nil {
		return false
	}
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,`, r.ID)
	switch r.Method {
	case "initialize":
		out.WriteString(`"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"rss-bench","version":"1.0.0"}}}`)
	case "tools/list":
		out.WriteString(`"result":{"tools":[`)
		var page int64
		for first := true; page < p.pageBytes && p.sent+page < p.total; first = false {
			if !first {
				out.WriteByte(',')
			}
			b := tool(p.next)
			p.next++
			out.Write(b)
			page += int64(len(b)) + 1
		}
		p.sent += page
		out.WriteString(`]`)
		if p.sent < p.total {
			fmt.Fprintf(out, `,"nextCursor":"%d"`, p.next)
		}
		out.WriteString(`}}`)
	default:
		out.WriteString(`"error":{"code":-32601,"message":"method not found"}}`)
	}
	return true
}

func tool(i int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"name":"tool_%07d","description":"Tool number %d reads records from the store, filters them by the given fields and returns them as a list.","inputSchema":{"type":"object","properties":{`, i, i)
	for p := range 8 {
		if p > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"param_%d":{"type":"%s","description":"Parameter %d of tool %d, used to narrow the records returned."}`, p, []string{"string", "integer", "boolean", "number"}[p%4], p, i)
	}
	b.WriteString(`},"required":["param_0","param_4"]},"annotations":{"readOnlyHint":true}}`)
	return b.Bytes()
}

// generate writes benchsurface's snapshot of n tools, as pkg/diff's
// benchmark diffs it.
func generate(path string, n int, changed bool) error {
	data, err := benchsurface.Snapshot(n, changed)
	if err != nil {
		return err
	}
	// Through the canonical form, as `mcp-surface snapshot` would write it.
	return writeCanonical(path, data)
}

func writeCanonical(path string, data []byte) error {
	m, err := manifest.FromCanonicalJSON(data)
	if err != nil {
		return err
	}
	return manifest.WriteFile(path, m)
}
