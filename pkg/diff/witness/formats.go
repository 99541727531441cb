package witness

import "strings"

// formatSample is a string of n runes (any length when n < 0) that the
// format's definition accepts, so that a witness holds for a client that
// asserts formats as well as for one that reads them as annotations.
// false for a format without a sample (or one that cannot be n long).
func formatSample(format string, n int) (string, bool) {
	fixed := map[string]string{
		"date":                  "2000-01-01",
		"date-time":             "2000-01-01T00:00:00Z",
		"time":                  "00:00:00Z",
		"duration":              "P1D",
		"uuid":                  "00000000-0000-4000-8000-000000000000",
		"ipv4":                  "192.0.2.1",
		"ipv6":                  "2001:db8::1",
		"json-pointer":          "",
		"relative-json-pointer": "0",
		"regex":                 "a",
	}
	if s, ok := fixed[format]; ok {
		if n >= 0 && n != len(s) {
			if format == "json-pointer" && n > 1 {
				return "/" + strings.Repeat("a", n-1), true
			}
			return "", false
		}
		return s, true
	}
	// Formats with a free part: the sample grows there to reach n.
	type grow struct{ head, pad, tail string }
	g, ok := map[string]grow{
		"email":         {"a", "a", "@example.com"},
		"idn-email":     {"a", "a", "@example.com"},
		"hostname":      {"a", "a", ".example.com"},
		"idn-hostname":  {"a", "a", ".example.com"},
		"uri":           {"https://example.com/", "a", ""},
		"iri":           {"https://example.com/", "a", ""},
		"uri-reference": {"a", "a", ""},
		"iri-reference": {"a", "a", ""},
		"uri-template":  {"https://example.com/", "a", ""},
	}[format]
	if !ok {
		return "", false
	}
	s := g.head + g.tail
	if n < 0 {
		return s, true
	}
	if (format == "email" || format == "idn-email") && n >= 3 && n < len(s) {
		return strings.Repeat("a", n-2) + "@b", true // a one-label domain
	}
	if n < len(s) || format == "hostname" && n-len(g.tail) > 63 || format == "email" && n-len(g.tail) > 64 {
		return "", false
	}
	return g.head + strings.Repeat(g.pad, n-len(s)) + g.tail, true
}
