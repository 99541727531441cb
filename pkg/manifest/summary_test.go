package manifest

import "testing"

func TestRevisionPath(t *testing.T) {
	for _, tc := range []struct {
		path    string
		several bool
		want    string
	}{
		{"mcp-surface.json", false, "mcp-surface.json"},
		{"mcp-surface.json", true, "mcp-surface.2025-06-18.json"},
		{"snap/{version}/s.json", true, "snap/2025-06-18/s.json"},
		{"noext", true, "noext.2025-06-18"},
	} {
		if got := RevisionPath(tc.path, "2025-06-18", tc.several); got != tc.want {
			t.Errorf("RevisionPath(%q, %v) = %q, want %q", tc.path, tc.several, got, tc.want)
		}
	}
}
