package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestOneRepeatedMistakeIsCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\nacknowledged:\n")
	const n = 20_000
	for range n {
		b.WriteString("  - rule: tool-removed\n    reason: gone\n    bogus: 1\n")
	}
	b.WriteString("typo: 1\n")
	_, err := Parse("big.yaml", []byte(b.String()))
	var es Errors
	if !errors.As(err, &es) || len(es) != n+1 {
		t.Fatalf("got %d errors, want %d: %v", len(es), n+1, err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxSameMessage+2 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), maxSameMessage+2, err)
	}
	if want := fmt.Sprintf("… and %s more like this", thousands(n-maxSameMessage)); lines[maxSameMessage] != want {
		t.Errorf("line %d = %q, want %q", maxSameMessage, lines[maxSameMessage], want)
	}
	if !strings.HasPrefix(lines[0], "big.yaml:5: ") || !strings.Contains(lines[len(lines)-1], "typo") {
		t.Errorf("first %q, last %q", lines[0], lines[len(lines)-1])
	}
}

func TestManyDifferentMistakesAreBounded(t *testing.T) {
	var es Errors
	for i := range 1000 {
		es = append(es, &Error{File: "c.yaml", Line: i + 1, Msg: fmt.Sprintf("mistake %d", i)})
	}
	lines := strings.Split(es.Error(), "\n")
	if len(lines) != maxErrorLines+1 || lines[maxErrorLines] != "… and 800 more" {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestThousands(t *testing.T) {
	tabletest.Map(t, "thousands", thousands, map[int]string{0: "0", 999: "999", 1000: "1,000", 152950: "152,950", 1234567: "1,234,567"})
}

func TestAHugeFileIsRefusedBeforeParsing(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp-surface.yaml")
	f, _ := os.Create(path)
	f.Truncate(MaxFileBytes + 1)
	f.Close()
	_, err := LoadContext(context.Background(), path)
	var te *infile.TooLargeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "larger than 4 MiB, the limit for a configuration file") {
		t.Errorf("got %v", err)
	}
	if _, err := LoadContext(context.Background(), "/dev/zero"); !errors.As(err, &te) {
		t.Errorf("/dev/zero: got %v", err)
	}
}
