package schemadiff

import "testing"

func TestNamesRelated(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"firstValue", "first_value", true},
		{"path", "file_path", true},
		{"maxDepth", "maxDiscoveryDepth", true},
		{"recieve", "receive", true},
		{"outputDir", "output_dir_path", true},
		{"raw", "fullPage", false},
		{"category", "anonymous_user_use_case", false},
		{"allowBackwardLinks", "allowSubdomains", false},
		{"ignoreSitemap", "ignoreQueryParameters", false},
		{"x", "y", false},
		{"ref", "target", false},
	} {
		if got := namesRelated(c.a, c.b); got != c.want {
			t.Errorf("namesRelated(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := namesRelated(c.b, c.a); got != c.want {
			t.Errorf("namesRelated(%q, %q) = %v, want %v (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestWordContainment(t *testing.T) {
	long := "Exact target element reference from the page snapshot. If not provided, the screenshot will be taken of viewport."
	short := "Exact target element reference from the page snapshot, or a unique element selector"
	if got := wordContainment(long, short); got < 0.6 {
		t.Errorf("a description that grew a sentence keeps %.2f of the shorter one's words, want at least 0.6", got)
	}
	if got := wordContainment("Skip sitemap.xml discovery and only use HTML links", "Do not return URLs with query parameters"); got >= 0.3 {
		t.Errorf("unrelated descriptions share %.2f, want under 0.3", got)
	}
	if wordContainment("", "text") != 0 {
		t.Error("an empty description contains nothing")
	}
}
