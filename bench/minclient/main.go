// Command minclient is the baseline of the capture benchmark: the smallest
// correct stdio MCP client that sends the same requests as
// `mcp-surface capture` and nothing else.
//
//	minclient [-protocol-version REV] [-no-wait | -kill] [-timings] -- CMD ARGS...
//
// It starts CMD, sends initialize (empty client capabilities) and
// notifications/initialized, then, for every capability the server
// advertised, tools/list, prompts/list, resources/list and
// resources/templates/list, following nextCursor to the last page. It
// prints the number of bytes read from the server's stdout, closes the
// server's stdin and waits for the server to exit, as any well-behaved
// stdio client does. With -no-wait it exits right after closing stdin,
// leaving the server to exit on its own. With -kill it kills the server
// once it has every page and reaps it: the issue's "minimal client that
// kills the server once it has every page".
//
// It records nothing, validates nothing beyond what it needs to pair
// responses with requests, and uses only the standard library: it is the
// floor that the capture's overhead is measured against.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() {
	version := flag.String("protocol-version", "2025-11-25", "protocol `revision` sent in initialize")
	noWait := flag.Bool("no-wait", false, "exit after closing the server's stdin, without waiting for the server to exit")
	kill := flag.Bool("kill", false, "once every page is read, kill the server (SIGKILL) and reap it instead of waiting for it to exit")
	timings := flag.Bool("timings", false, "print phase timings (startup, lists, exit wait, total) to stderr")
	timeout := flag.Duration("timeout", 30*time.Second, "bound on the whole run; the server is killed when it is reached")
	maxPages := flag.Int("max-pages", 1000, "bound on the pages read per list")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: minclient [flags] -- CMD ARGS...")
		flag.PrintDefaults()
	}
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(argv, *version, *noWait, *kill, *timings, *timeout, *maxPages); err != nil {
		fmt.Fprintln(os.Stderr, "minclient:", err)
		os.Exit(1)
	}
}

// message is the part of a JSON-RPC message the client looks at.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type client struct {
	in     io.WriteCloser
	out    *bufio.Reader
	nextID int64
	bytes  int64
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// call sends a request and reads lines until its response arrives.
// Notifications are skipped; requests from the server are answered with
// "method not found" (this client declares no capabilities).
func (c *client) call(method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("%s: writing the request: %w", method, err)
	}
	want := []byte(fmt.Sprint(id))
	for {
		line, err := c.out.ReadBytes('\n')
		c.bytes += int64(len(line))
		if err != nil {
			if err == io.EOF {
				err = errors.New("the server closed stdout")
			}
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("%s: the server sent a line that is not JSON: %.200s", method, line)
		}
		switch {
		case m.Method != "" && m.ID != nil:
			if err := c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID,
				"error": map[string]any{"code": -32601, "message": "Method not found"}}); err != nil {
				return nil, err
			}
		case m.Method != "":
			// a notification
		case bytes.Equal(m.ID, want):
			if m.Error != nil {
				return nil, fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
			}
			return m.Result, nil
		}
	}
}

var lists = []struct{ capability, method string }{
	{"tools", "tools/list"},
	{"prompts", "prompts/list"},
	{"resources", "resources/list"},
	{"resources", "resources/templates/list"},
}

func run(argv []string, version string, noWait, kill, timings bool, timeout time.Duration, maxPages int) error {
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	killer := time.AfterFunc(timeout, func() { _ = cmd.Process.Kill() })
	defer killer.Stop()
	fail := func(err error) error {
		_ = in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}

	c := &client{in: in, out: bufio.NewReaderSize(out, 64<<10)}
	res, err := c.call("initialize", map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "minclient", "version": "dev"},
	})
	if err != nil {
		return fail(err)
	}
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		return fail(fmt.Errorf("initialize: %w", err))
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return fail(err)
	}
	startup := time.Since(start)

	listStart := time.Now()
	for _, l := range lists {
		if v, ok := init.Capabilities[l.capability]; !ok || string(v) == "null" {
			continue
		}
		cursor := ""
		for page := 0; ; page++ {
			if page >= maxPages {
				return fail(fmt.Errorf("%s: more than %d pages", l.method, maxPages))
			}
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			res, err := c.call(l.method, params)
			if err != nil {
				return fail(err)
			}
			var r struct {
				NextCursor string `json:"nextCursor"`
			}
			_ = json.Unmarshal(res, &r)
			if r.NextCursor == "" {
				break
			}
			if r.NextCursor == cursor {
				return fail(fmt.Errorf("%s: the cursor repeats", l.method))
			}
			cursor = r.NextCursor
		}
	}
	listTime := time.Since(listStart)
	fmt.Println(c.bytes)

	closed := time.Now()
	_ = in.Close()
	var exitWait time.Duration
	switch {
	case kill:
		// The floor for a client that owns its server: nothing is waited
		// for but the reap.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		exitWait = time.Since(closed)
	case !noWait:
		// Read (and count) anything the server still writes, so it never
		// blocks on a full pipe, until it closes stdout; then reap it.
		n, _ := io.Copy(io.Discard, c.out)
		c.bytes += n
		err := cmd.Wait()
		exitWait = time.Since(closed)
		if err != nil {
			return fmt.Errorf("the server exited with %v", err)
		}
	}
	if timings {
		fmt.Fprintf(os.Stderr, "startup=%s lists=%s exitwait=%s total=%s\n",
			ms(startup), ms(listTime), ms(exitWait), ms(time.Since(start)))
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }
