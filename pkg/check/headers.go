package check

import (
	"fmt"
	"net/http"
	"strings"
)

// ParseHeaders reads HTTP header lines "Name: value" (as a command line
// gives them), expanding ${VAR} in each value with getenv (Expand). The
// error starts with the header, for the caller to prefix with the flag or
// input that gave it.
func ParseHeaders(lines []string, getenv func(string) string) (http.Header, error) {
	h := http.Header{}
	for _, raw := range lines {
		name, value, ok := strings.Cut(raw, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%q: use 'Name: value'", name)
		}
		v, err := expand(strings.TrimSpace(value), getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		h.Add(name, v)
	}
	return h, nil
}
