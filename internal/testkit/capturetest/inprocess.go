package capturetest

import (
	"context"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// InProcess captures testserver's server of mode in process with o; a
// server that cannot be made or captured fails the test.
func InProcess(t testing.TB, mode string, o capture.Options) *capture.Capture {
	t.Helper()
	srv, err := testserver.New(mode)
	if err != nil {
		t.Fatal(err)
	}
	c, err := capture.Run(context.Background(), capture.InProcess{Server: srv}, o)
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	return c
}

// Build is manifest.Build, failing the test on an error.
func Build(t testing.TB, c *capture.Capture) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Build(c)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return m
}

// Encode is manifest.Encode, failing the test on an error.
func Encode(t testing.TB, m *manifest.Manifest) []byte {
	t.Helper()
	b, err := manifest.Encode(m)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// Read is manifest.FromCanonicalJSON, failing the test on an error.
func Read(t testing.TB, data []byte) *manifest.Manifest {
	t.Helper()
	m, err := manifest.FromCanonicalJSON(data)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return m
}
