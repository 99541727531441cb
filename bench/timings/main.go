// Command timings profiles where a stdio capture spends its time: it runs
// capture.Run on the same server N times, in process, and prints the
// capture's own Timings (Startup, Lists, Shutdown, Total) for every run,
// plus the time manifest.Build and manifest.Encode take afterwards, then
// the median, minimum and maximum of each.
//
//	timings [-n 15] [-protocol-version REV] [-grace 500ms] [-cpuprofile FILE] -- CMD ARGS...
//
// Startup runs from launching the server to the handshake's result
// (for 2026-07-28 that includes the server/discover round trip and the
// fallback to initialize); Lists is every list page; Shutdown runs from
// closing the server's stdin to the process group being gone (the server's
// own exit time, capped near -grace by SIGTERM); Total is the whole of
// capture.Run. Snapshot is manifest.Build plus manifest.Encode, the work
// `mcp-surface capture` does after capture.Run.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func main() {
	n := flag.Int("n", 15, "number of captures")
	version := flag.String("protocol-version", "", "protocol `revision` to request (default: capture.LatestRevision)")
	grace := flag.Duration("grace", 0, "capture.Limits.ShutdownGrace (0: the package default)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of all the runs to this `file`")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: timings [flags] -- CMD ARGS...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "timings:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	target := capture.Command{Argv: flag.Args(), Env: os.Environ()}
	cols := []string{"startup", "lists", "shutdown", "total", "snapshot"}
	samples := make([][]time.Duration, len(cols))
	fmt.Printf("%-4s", "run")
	for _, c := range cols {
		fmt.Printf(" %10s", c)
	}
	fmt.Println()
	for i := 0; i < *n; i++ {
		c, err := capture.Run(context.Background(), target, capture.Options{
			ProtocolVersion: *version, ClientName: "mcp-surface", ClientVersion: "dev", Now: time.Now,
			Limits: capture.Limits{ShutdownGrace: *grace},
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "timings:", err)
			os.Exit(1)
		}
		s := time.Now()
		m, err := manifest.Build(c)
		if err == nil {
			_, err = manifest.Encode(m)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "timings: building the snapshot:", err)
			os.Exit(1)
		}
		snap := time.Since(s)
		row := []time.Duration{c.Timings.Startup, c.Timings.Lists, c.Timings.Shutdown, c.Timings.Total, snap}
		fmt.Printf("%-4d", i+1)
		for j, d := range row {
			samples[j] = append(samples[j], d)
			fmt.Printf(" %10s", ms(d))
		}
		fmt.Println()
	}
	for _, stat := range []struct {
		name string
		pick func([]time.Duration) time.Duration
	}{
		{"med", median},
		{"min", func(x []time.Duration) time.Duration { return slices.Min(x) }},
		{"max", func(x []time.Duration) time.Duration { return slices.Max(x) }},
	} {
		fmt.Printf("%-4s", stat.name)
		for _, s := range samples {
			fmt.Printf(" %10s", ms(stat.pick(s)))
		}
		fmt.Println()
	}
}

func median(x []time.Duration) time.Duration {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }
