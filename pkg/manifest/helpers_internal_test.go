package manifest

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// The package's own tests cannot import internal/testkit/capturetest
// (it imports this package): these are its Build, Encode and Read.

func mustBuild(t testing.TB, c *capture.Capture) *Manifest {
	t.Helper()
	m, err := Build(c)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return m
}

func mustEncode(t testing.TB, m *Manifest) []byte {
	t.Helper()
	b, err := Encode(m)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func mustRead(t testing.TB, data []byte) *Manifest {
	t.Helper()
	m, err := FromCanonicalJSON(data)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return m
}

func mustCanonical(t testing.TB, m *Manifest) []byte {
	t.Helper()
	b, err := m.CanonicalJSON()
	if err != nil {
		t.Fatalf("canonical JSON: %v", err)
	}
	return b
}
