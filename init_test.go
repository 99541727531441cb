package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every mcp-surface command, --version included, first runs the variable
// initializers of every package the binary links. Work done there (a
// regexp compiled, embedded files decoded, a table built) is paid by
// every run, so our packages keep it lazy (sync.OnceValue, lazyre).
//
// This test holds our packages to that. It runs this test binary again,
// which links the same packages as mcp-surface, with GODEBUG=inittrace=1,
// and bounds what their initializers allocate in total. Allocations, unlike
// the times inittrace also prints, do not depend on the machine's load;
// the work that mattered (compiling regexps, decoding YAML, parsing
// templates, building the rule table) all allocated. In this version the
// total is about 300 allocations and 45 KiB; it was 19,000 and 1.6 MiB
// before the initializers were made lazy.
const (
	maxInitAllocs = 1000
	maxInitBytes  = 128 << 10
)

const modulePath = "github.com/mcp-surface/mcp-surface"

// initLine is one line of GODEBUG=inittrace=1 output.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

type pkgInit struct {
	path          string
	bytes, allocs int
}

func TestInitializersStayCheap(t *testing.T) {
	shipped := binaryPackages(t)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG="+strings.TrimPrefix(os.Getenv("GODEBUG")+",inittrace=1", ","))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("re-running the test binary: %v\n%s", err, out)
	}

	var ours []pkgInit
	total := pkgInit{path: "total"}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil || !shipped[m[1]] {
			continue
		}
		b, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		ours = append(ours, pkgInit{m[1], b, a})
		total.bytes += b
		total.allocs += a
	}
	// internal/app/cli always has initializers (Version, the --format table);
	// without its line the trace's format changed and nothing was measured.
	if !slices.ContainsFunc(ours, func(p pkgInit) bool { return p.path == modulePath+"/internal/app/cli" }) {
		t.Fatalf("no inittrace line for internal/app/cli: did the GODEBUG=inittrace=1 format change?\n%s", out)
	}
	t.Logf("our packages' initializers: %d allocations, %d bytes", total.allocs, total.bytes)
	if total.allocs <= maxInitAllocs && total.bytes <= maxInitBytes {
		return
	}
	slices.SortFunc(ours, func(a, b pkgInit) int { return cmp.Compare(b.bytes, a.bytes) })
	var list strings.Builder
	for _, p := range ours[:min(8, len(ours))] {
		fmt.Fprintf(&list, "\n  %-60s %8d bytes %6d allocs", p.path, p.bytes, p.allocs)
	}
	t.Errorf("our packages' initializers allocate %d times, %d bytes (at most %d, %d): every command pays for that at start-up; "+
		"do the work at first use instead (sync.OnceValue, internal/base/lazyre). The largest:%s",
		total.allocs, total.bytes, maxInitAllocs, maxInitBytes, list.String())
}

// binaryPackages returns this module's packages that mcp-surface links,
// leaving out those only tests import and this package (whose test files
// have initializers of their own).
func binaryPackages(t *testing.T) map[string]bool {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the binary's packages")
	}
	out, err := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	pkgs := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, modulePath+"/") {
			pkgs[p] = true
		}
	}
	return pkgs
}
