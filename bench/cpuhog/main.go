// Command cpuhog runs a command beside a CPU hog: busy threads (twice the
// cores by default) that keep every core contended for as long as the
// command runs, as the other jobs of a shared CI runner or a developer's
// build do. It is how the suite is shown to pass on a loaded machine
// (.ci/run runs go test -race ./... under it once):
//
//	go run ./bench/cpuhog -- go test -race ./...
//	go run ./bench/cpuhog -threads 8 -- go test ./internal/app/cli
//
// It exits with the command's exit code (2 when it could not start it);
// SIGINT and SIGTERM are passed on to the command. The hog ends with it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
)

func main() {
	threads := flag.Int("threads", 2*runtime.NumCPU(), "busy threads")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: cpuhog [-threads N] -- COMMAND [ARGS...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *threads < 1 {
		flag.Usage()
		os.Exit(2)
	}
	// One OS thread per busy goroutine, on top of the runtime's own.
	runtime.GOMAXPROCS(*threads + 1)
	for range *threads {
		go spin()
	}
	fmt.Fprintf(os.Stderr, "cpuhog: %d busy threads on %d cores beside: %v\n", *threads, runtime.NumCPU(), flag.Args())
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "cpuhog: %v\n", err)
		os.Exit(2)
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		os.Exit(ee.ExitCode())
	}
	fmt.Fprintf(os.Stderr, "cpuhog: %v\n", err)
	os.Exit(2)
}

// spin keeps one thread busy for good.
func spin() {
	runtime.LockOSThread()
	x := uint64(1)
	for {
		// xorshift: work the compiler cannot drop.
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x == 0 {
			fmt.Fprint(os.Stderr, "")
		}
	}
}
