package lock

import (
	"path/filepath"
	"regexp"
	"strings"
)

// The ecosystems a package launcher installs from.
const (
	EcosystemNPM  = "npm"
	EcosystemPyPI = "pypi"
	EcosystemOCI  = "oci"
)

// Spec is the package a stdio entry's command launches, as written.
type Spec struct {
	// Launcher is the command that installs and runs it: npx, npm exec,
	// pnpm dlx, yarn dlx, bunx, uvx, uv tool run, pipx run, docker run,
	// podman run.
	Launcher  string
	Ecosystem string
	// Written is the package argument as the entry writes it.
	Written string
	// Name is the package (or image repository, with its registry host
	// when written); Version the exact version written (npm, PyPI), ""
	// when it floats; Range the range, tag or "" written instead; for an
	// image Tag its tag and Digest its digest ("sha256:…", "" unpinned).
	Name, Version, Range string
	Tag, Digest          string
}

// Pinned reports whether the spec names exact bytes: an exact version
// (whose registry integrity the lock then records), or an image digest.
func (s *Spec) Pinned() bool {
	if s.Ecosystem == EcosystemOCI {
		return s.Digest != ""
	}
	return s.Version != ""
}

// exactVersion is a semantic version (npm) or a release without range
// operators (PyPI).
var exactVersion = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+)*([-+.]?[0-9A-Za-z.+-]*)?$`)

// launchers: the command (its base name), its subcommand, the ecosystem,
// the flags that take a value (the package flag first: its value is the
// package), and whether the first operand is the package.
var launchers = []struct {
	cmd, sub, eco string
	pkgFlags      []string
	valueFlags    []string
}{
	{"npx", "", EcosystemNPM, []string{"-p", "--package"}, []string{"-c", "--call", "--registry", "--cache", "--userconfig"}},
	{"npm", "exec", EcosystemNPM, []string{"-p", "--package"}, []string{"-c", "--call", "--registry", "--cache", "--userconfig", "-w", "--workspace"}},
	{"pnpm", "dlx", EcosystemNPM, []string{"--package"}, []string{"-c"}},
	{"yarn", "dlx", EcosystemNPM, []string{"-p", "--package"}, nil},
	{"bunx", "", EcosystemNPM, []string{"-p", "--package"}, nil},
	{"uvx", "", EcosystemPyPI, []string{"--from"}, []string{"--with", "--with-editable", "--with-requirements", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--default-index", "-i", "--directory", "--project", "--config-file", "--cache-dir", "--constraints", "--overrides"}},
	{"uv", "tool run", EcosystemPyPI, []string{"--from"}, []string{"--with", "--with-editable", "--with-requirements", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--default-index", "-i", "--directory", "--project", "--config-file", "--cache-dir", "--constraints", "--overrides"}},
	{"pipx", "run", EcosystemPyPI, []string{"--spec"}, []string{"--python", "--index-url", "--pip-args"}},
	{"docker", "run", EcosystemOCI, nil, []string{"-e", "--env", "--env-file", "-v", "--volume", "--mount", "--name", "--network", "--net", "-p", "--publish", "-w", "--workdir", "-u", "--user", "--entrypoint", "--platform", "--pull", "-l", "--label", "--label-file", "--cpus", "-m", "--memory", "--add-host", "--device", "--cap-add", "--cap-drop", "--security-opt", "--tmpfs", "-h", "--hostname", "--ulimit", "--log-driver", "--log-opt", "--runtime", "--ipc", "--pid", "--dns", "--group-add", "--shm-size", "--stop-signal", "--stop-timeout", "--cidfile", "--gpus", "--restart", "--expose", "--link"}},
	{"podman", "run", EcosystemOCI, nil, []string{"-e", "--env", "--env-file", "-v", "--volume", "--mount", "--name", "--network", "--net", "-p", "--publish", "-w", "--workdir", "-u", "--user", "--entrypoint", "--platform", "--pull", "-l", "--label", "--label-file", "--cpus", "-m", "--memory", "--add-host", "--device", "--cap-add", "--cap-drop", "--security-opt", "--tmpfs", "-h", "--hostname", "--ulimit", "--log-driver", "--log-opt", "--runtime", "--ipc", "--pid", "--dns", "--group-add", "--shm-size", "--stop-signal", "--stop-timeout", "--cidfile", "--gpus", "--restart", "--expose", "--userns", "--arch", "--os"}},
}

// ParseLaunch reads the package a stdio command launches; ok is false
// when the command is not a package launcher (node server.js, a binary)
// or names no package.
func ParseLaunch(command string, args []string) (Spec, bool) {
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(command)), ".cmd")
	base = strings.TrimSuffix(base, ".exe")
	for _, l := range launchers {
		if l.cmd != base {
			continue
		}
		rest := args
		if l.sub != "" {
			sub := strings.Fields(l.sub)
			if len(rest) < len(sub) {
				return Spec{}, false
			}
			for i, w := range sub {
				if rest[i] != w {
					return Spec{}, false
				}
			}
			rest = rest[len(sub):]
		}
		written := ""
		for i := 0; i < len(rest) && written == ""; i++ {
			a := rest[i]
			if a == "--" {
				if i+1 < len(rest) {
					written = rest[i+1]
				}
				break
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				written = a
				break
			}
			name, value, inline := strings.Cut(a, "=")
			switch {
			case contains(l.pkgFlags, name):
				if inline {
					written = value
				} else if i+1 < len(rest) {
					written = rest[i+1]
				}
			case contains(l.valueFlags, name) && !inline:
				i++
			}
		}
		if written == "" {
			return Spec{}, false
		}
		s := Spec{Launcher: strings.TrimSpace(l.cmd + " " + l.sub), Ecosystem: l.eco, Written: written}
		switch l.eco {
		case EcosystemNPM:
			s.Name, s.Range = splitNPM(written)
		case EcosystemPyPI:
			s.Name, s.Range = splitPyPI(written)
		case EcosystemOCI:
			s.Name, s.Tag, s.Digest = splitImage(written)
			return s, s.Name != ""
		}
		if exactVersion.MatchString(s.Range) && !strings.ContainsAny(s.Range, "xX*") {
			s.Version, s.Range = strings.TrimPrefix(s.Range, "v"), ""
		}
		return s, s.Name != ""
	}
	return Spec{}, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// splitNPM splits "name@range" (the name may be scoped: "@scope/name").
func splitNPM(s string) (name, rng string) {
	at := strings.LastIndex(s, "@")
	if at <= 0 {
		return s, ""
	}
	return s[:at], s[at+1:]
}

// splitPyPI splits "name==1.2", "name@1.2" (uvx), "name>=1" and
// "name[extra]==1.2" into the name and what follows it; an exact "=="
// (or uvx's "@") comes back as the bare version.
func splitPyPI(s string) (name, rng string) {
	i := strings.IndexAny(s, "=<>!~@ ;")
	if i < 0 {
		return stripExtras(s), ""
	}
	name, rng = stripExtras(s[:i]), strings.TrimSpace(s[i:])
	switch {
	case strings.HasPrefix(rng, "===") || strings.HasPrefix(rng, "=="):
		v := strings.TrimLeft(rng, "=")
		if !strings.ContainsAny(v, "*,") {
			return name, v
		}
	case strings.HasPrefix(rng, "@"):
		return name, rng[1:]
	}
	return name, rng
}

func stripExtras(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		return s[:i]
	}
	return s
}

// splitImage splits "host/repo:tag@sha256:…" (every part but the
// repository optional).
func splitImage(s string) (name, tag, digest string) {
	if i := strings.Index(s, "@"); i >= 0 {
		s, digest = s[:i], s[i+1:]
	}
	slash := strings.LastIndex(s, "/")
	if i := strings.LastIndex(s, ":"); i > slash {
		s, tag = s[:i], s[i+1:]
	}
	return s, tag, digest
}

// PinnedSpec is the argument to write instead of a floating one: the
// exact version resolved, or the image with its digest.
func PinnedSpec(s Spec, p *Package) string {
	switch s.Ecosystem {
	case EcosystemNPM:
		return s.Name + "@" + p.Version
	case EcosystemPyPI:
		if s.Launcher == "pipx run" {
			return s.Name + "==" + p.Version
		}
		if s.Launcher == "uvx" || s.Launcher == "uv tool run" {
			return s.Name + "@" + p.Version
		}
		return s.Name + "==" + p.Version
	}
	ref := s.Name
	if s.Tag != "" {
		ref += ":" + s.Tag
	}
	return ref + "@" + p.Integrity
}
