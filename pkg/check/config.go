package check

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
)

// FromConfig resolves the servers: list of the configuration read from
// cfgPath (see ServerFromConfig).
func FromConfig(cfg *config.Config, cfgPath, repoDir string, getenv func(string) string) ([]Server, error) {
	var out []Server
	for _, s := range cfg.Servers {
		sp, err := ServerFromConfig(s, cfgPath, repoDir, getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

// ServerFromConfig resolves one servers: entry of the configuration at
// cfgPath for a run whose paths are relative to repoDir ("" = the current
// directory): cwd and snapshot, written relative to the file, become
// relative to repoDir; ${VAR} in header values and in probe arguments is
// expanded with getenv (an unset variable is an error that names it,
// never a value); env entries become NAME=value, sorted. The values
// substituted into probe arguments are kept in Secrets.
func ServerFromConfig(s config.Server, cfgPath, repoDir string, getenv func(string) string) (Server, error) {
	cfgDir := "."
	if cfgPath != "" {
		cfgDir = filepath.Dir(cfgPath)
	}
	rel := func(p string) string {
		p = filepath.Join(cfgDir, p)
		if repoDir != "" {
			if abs, err := filepath.Abs(p); err == nil {
				if r, err := filepath.Rel(repoDir, abs); err == nil {
					p = r
				}
			}
		}
		return filepath.ToSlash(p)
	}
	sp := Server{Name: s.Name, Command: s.Command, Shell: s.Shell, URL: s.URL, SSE: s.SSE,
		Require: slices.Clone(s.RequireProbes), ProtocolVersion: s.ProtocolVersion, ShutdownGrace: s.ShutdownGrace}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		sp.Env = append(sp.Env, k+"="+s.Env[k])
	}
	if len(s.Command) > 0 {
		sp.Dir = rel(s.Cwd)
	}
	if s.Snapshot != "" {
		sp.Snapshot = rel(s.Snapshot)
	}
	if len(s.Headers) > 0 {
		sp.Headers = http.Header{}
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			v, err := expand(s.Headers[k], getenv)
			if err != nil {
				return Server{}, fmt.Errorf("server %s: header %s: %w", s.Name, k, err)
			}
			sp.Headers.Add(k, v)
		}
	}
	probes, secrets, err := probe.Expand(captureProbes(s.Probes), getenv)
	if err != nil {
		return Server{}, fmt.Errorf("server %s: %w", s.Name, err)
	}
	sp.Probes, sp.Secrets = probes, secrets
	return sp, nil
}

// expand replaces ${VAR} and $VAR in s with getenv's values; a variable
// that is unset (or empty) is an error that names it.
func expand(s string, getenv func(string) string) (string, error) {
	var missing []string
	v := os.Expand(s, func(name string) string {
		x := getenv(name)
		if x == "" {
			missing = append(missing, name)
		}
		return x
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("environment variable %s is not set", strings.Join(missing, ", "))
	}
	return v, nil
}
