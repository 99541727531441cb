// Command testserver runs one of the internal/testkit/testserver modes, for tests
// that need a real server process (e2e tests, tests of other packages).
//
// Usage:
//
//	testserver MODE                       serve MODE over stdio
//	testserver -http 127.0.0.1:0 MODE     serve an SDK mode over streamable HTTP
//	testserver -http 127.0.0.1:0 -sse MODE   ... over the legacy HTTP+SSE transport
//	testserver -http 127.0.0.1:0 -stateless MODE   ... over stateless streamable HTTP
//	testserver -list                      print every mode, one per line
//
// With -http, the server's URL (http://HOST:PORT) is printed as the first and
// only line on stdout once it is listening. If $MCP_SURFACE_TESTSERVER is set,
// its mode is served over stdio and the arguments are ignored.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

func main() {
	testserver.MaybeRunFromEnv()

	httpAddr := flag.String("http", "", "serve an SDK mode over HTTP at this address instead of stdio")
	sse := flag.Bool("sse", false, "with -http, use the legacy HTTP+SSE transport instead of streamable HTTP")
	stateless := flag.Bool("stateless", false, "with -http, serve stateless streamable HTTP (which serves 2026-07-28)")
	list := flag.Bool("list", false, "list the modes and exit")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: testserver [-http ADDR [-sse | -stateless]] MODE\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	if *list {
		for _, m := range testserver.Modes() {
			fmt.Println(m)
		}
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	mode := flag.Arg(0)

	if *httpAddr == "" {
		os.Exit(testserver.Main(mode))
	}
	if err := serveHTTP(*httpAddr, mode, *sse, *stateless); err != nil {
		fmt.Fprintf(os.Stderr, "testserver: %v\n", err)
		os.Exit(1)
	}
}

func serveHTTP(addr, mode string, sse, stateless bool) error {
	h, err := testserver.Handler(mode, sse)
	if stateless {
		h, err = testserver.StatelessHandler(mode)
	}
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Handler: h}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}
