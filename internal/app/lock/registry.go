package lock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Package is the identity of the package a locked server runs, as the
// registry its launcher installs from serves it.
type Package struct {
	Ecosystem string `json:"ecosystem"`
	// Registry is the registry's base URL the launcher would use.
	Registry string `json:"registry"`
	Name     string `json:"name"`
	// Version is the exact version resolved (npm, PyPI), or the image's
	// tag ("latest" when none is written).
	Version string `json:"version"`
	// Integrity is npm's dist.integrity, or the OCI manifest digest;
	// "" for PyPI, whose distributions are in Files.
	Integrity string `json:"integrity,omitempty"`
	// Files are the PyPI release's distributions and their sha256,
	// sorted by file name.
	Files []DistFile `json:"files,omitempty"`
}

// DistFile is one distribution of a PyPI release.
type DistFile struct {
	Filename string `json:"filename"`
	SHA256   string `json:"sha256"`
}

// SameBytes reports whether two records of one version name the same
// bytes: the same integrity, and the same digest for every file the
// locked one holds (a file added since is not a change of the bytes the
// lock pinned).
func (p *Package) SameBytes(locked *Package) bool {
	if p.Integrity != locked.Integrity {
		return false
	}
	for _, f := range locked.Files {
		i := slices.IndexFunc(p.Files, func(g DistFile) bool { return g.Filename == f.Filename })
		if i < 0 || p.Files[i].SHA256 != f.SHA256 {
			return false
		}
	}
	return true
}

// Digest is what names the bytes, for people: the integrity, or the
// first distribution's digest and their count.
func (p *Package) Digest() string {
	if p.Integrity != "" || len(p.Files) == 0 {
		return p.Integrity
	}
	s := p.Files[0].Filename + " sha256:" + p.Files[0].SHA256
	if len(p.Files) > 1 {
		s += fmt.Sprintf(" (and %d more files)", len(p.Files)-1)
	}
	return s
}

// Registries say where and how package identities are read.
type Registries struct {
	// NPM and PyPI are base URLs that replace the launchers' own (the
	// entry's environment, then the public registries): a mirror, or a
	// stand-in in tests.
	NPM, PyPI string
	// OCIInsecure lists registry hosts read over plain HTTP (loopback
	// hosts always are, as container engines treat them).
	OCIInsecure []string
	// Client makes the requests (nil: a client of its own).
	Client *http.Client
	// Timeout bounds each request (0: 30 seconds); MaxBytes each
	// response body (0: 64 MiB, npm's metadata of a big package).
	Timeout  time.Duration
	MaxBytes int64
}

// The registries the launchers use when nothing says otherwise.
const (
	defaultNPM       = "https://registry.npmjs.org"
	defaultPyPI      = "https://pypi.org"
	dockerHubHost    = "registry-1.docker.io"
	defaultMaxBytes  = 64 << 20
	defaultReqTimout = 30 * time.Second
)

// Resolved is what a registry says of a spec: the package the spec
// resolves to (nil when it cannot be: a range the registry does not
// resolve by itself), and the newest version it has.
type Resolved struct {
	Package *Package
	Latest  string
}

// Resolve reads from the registry the launcher would use (env is the
// entry's environment, NAME=value) the identity of the package the spec
// launches.
func (r *Registries) Resolve(ctx context.Context, s Spec, env []string) (*Resolved, error) {
	switch s.Ecosystem {
	case EcosystemNPM:
		return r.npm(ctx, s, env)
	case EcosystemPyPI:
		return r.pypi(ctx, s, env)
	case EcosystemOCI:
		return r.oci(ctx, s)
	}
	return nil, fmt.Errorf("unknown ecosystem %q", s.Ecosystem)
}

func lookupEnv(env []string, names ...string) string {
	for _, n := range names {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && strings.EqualFold(k, n) && v != "" {
				return v
			}
		}
	}
	return ""
}

func (r *Registries) client() *http.Client {
	if r.Client != nil {
		return r.Client
	}
	return &http.Client{}
}

// withTimeout bounds ctx by the time one request may take: Timeout, or
// the default when it is not set.
func (r *Registries) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = defaultReqTimout
	}
	return context.WithTimeout(ctx, timeout)
}

// get requests u and decodes its JSON body into v; a response other than
// 200 is an error naming the status.
func (r *Registries) get(ctx context.Context, u, accept string, v any) error {
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", accept)
	resp, err := r.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", u, resp.Status)
	}
	max := r.MaxBytes
	if max <= 0 {
		max = defaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return err
	}
	if int64(len(data)) > max {
		return fmt.Errorf("%s: the response is larger than %d bytes", u, max)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: not the registry's JSON: %w", u, err)
	}
	return nil
}

func (r *Registries) npm(ctx context.Context, s Spec, env []string) (*Resolved, error) {
	base := r.NPM
	if base == "" {
		base = lookupEnv(env, "npm_config_registry")
	}
	if base == "" {
		base = defaultNPM
	}
	base = strings.TrimSuffix(base, "/")
	var meta struct {
		DistTags map[string]string `json:"dist-tags"`
		Versions map[string]struct {
			Dist struct {
				Integrity string `json:"integrity"`
				Shasum    string `json:"shasum"`
			} `json:"dist"`
		} `json:"versions"`
	}
	// The abbreviated metadata npm itself installs from.
	// Escaped as npm escapes it: "@scope%2fname".
	u := base + "/" + strings.Replace(url.PathEscape(strings.Replace(s.Name, "/", "\x00", 1)), "%00", "%2f", 1)
	u = strings.Replace(u, "/%40", "/@", 1)
	if err := r.get(ctx, u, "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8", &meta); err != nil {
		return nil, err
	}
	out := &Resolved{Latest: meta.DistTags["latest"]}
	version := s.Version
	if version == "" {
		tag := s.Range
		if tag == "" {
			tag = "latest"
		}
		version = meta.DistTags[tag] // a range is not resolved here: npm's own resolution decides it
	}
	if version == "" {
		return out, nil
	}
	v, ok := meta.Versions[version]
	if !ok {
		return nil, fmt.Errorf("the npm registry has no version %s of %s", version, s.Name)
	}
	integrity := v.Dist.Integrity
	if integrity == "" && v.Dist.Shasum != "" {
		integrity = "sha1:" + v.Dist.Shasum
	}
	out.Package = &Package{Ecosystem: EcosystemNPM, Registry: base, Name: s.Name, Version: version, Integrity: integrity}
	return out, nil
}

func (r *Registries) pypi(ctx context.Context, s Spec, env []string) (*Resolved, error) {
	base := r.PyPI
	if base == "" {
		// The launchers name a simple index; its JSON API is beside it.
		base = strings.TrimSuffix(strings.TrimSuffix(lookupEnv(env, "UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"), "/"), "/simple")
	}
	if base == "" {
		base = defaultPyPI
	}
	base = strings.TrimSuffix(base, "/")
	type release struct {
		Info struct {
			Version string `json:"version"`
		} `json:"info"`
		URLs []struct {
			Filename string            `json:"filename"`
			Digests  map[string]string `json:"digests"`
		} `json:"urls"`
	}
	var latest release
	if err := r.get(ctx, base+"/pypi/"+url.PathEscape(s.Name)+"/json", "application/json", &latest); err != nil {
		return nil, err
	}
	out := &Resolved{Latest: latest.Info.Version}
	rel := latest
	switch {
	case s.Version != "" && s.Version != latest.Info.Version:
		if err := r.get(ctx, base+"/pypi/"+url.PathEscape(s.Name)+"/"+url.PathEscape(s.Version)+"/json", "application/json", &rel); err != nil {
			return nil, err
		}
	case s.Version == "" && s.Range != "":
		return out, nil // a range: the installer's resolution decides it
	}
	p := &Package{Ecosystem: EcosystemPyPI, Registry: base, Name: s.Name, Version: rel.Info.Version}
	for _, f := range rel.URLs {
		if f.Digests["sha256"] != "" {
			p.Files = append(p.Files, DistFile{f.Filename, f.Digests["sha256"]})
		}
	}
	slices.SortFunc(p.Files, func(a, b DistFile) int { return strings.Compare(a.Filename, b.Filename) })
	if len(p.Files) == 0 {
		return nil, fmt.Errorf("PyPI lists no distribution with a sha256 for %s %s", s.Name, rel.Info.Version)
	}
	out.Package = p
	return out, nil
}

// imageRef splits an image name as container engines read it: the
// registry host (Docker Hub's when the first component is not a host)
// and the repository ("library/NAME" for an official image).
func imageRef(name string) (host, repo string) {
	first, rest, ok := strings.Cut(name, "/")
	if ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return first, rest
	}
	if !ok {
		return dockerHubHost, "library/" + name
	}
	if first == "docker.io" || first == "index.docker.io" {
		if !strings.Contains(rest, "/") {
			rest = "library/" + rest
		}
		return dockerHubHost, rest
	}
	return dockerHubHost, name
}

// manifestTypes are the manifests a HEAD accepts: the index (a
// multi-platform image) first, as engines ask.
var manifestTypes = []string{
	"application/vnd.oci.image.index.v1+json",
	"application/vnd.docker.distribution.manifest.list.v2+json",
	"application/vnd.oci.image.manifest.v1+json",
	"application/vnd.docker.distribution.manifest.v2+json",
}

func (r *Registries) oci(ctx context.Context, s Spec) (*Resolved, error) {
	host, repo := imageRef(s.Name)
	scheme := "https"
	if h, _, err := net.SplitHostPort(host); (err == nil && isLoopback(h)) || isLoopback(host) || slices.Contains(r.OCIInsecure, host) {
		scheme = "http"
	}
	tag := s.Tag
	if tag == "" {
		tag = "latest"
	}
	ref := tag
	if s.Digest != "" {
		ref = s.Digest
	}
	u := scheme + "://" + host + "/v2/" + repo + "/manifests/" + ref
	digest, err := r.head(ctx, u, "")
	var challenge *authChallenge
	if errors.As(err, &challenge) {
		token, terr := r.token(ctx, challenge, repo)
		if terr != nil {
			return nil, terr
		}
		digest, err = r.head(ctx, u, token)
	}
	if err != nil {
		return nil, err
	}
	return &Resolved{Package: &Package{Ecosystem: EcosystemOCI, Registry: scheme + "://" + host, Name: s.Name, Version: tag, Integrity: digest}}, nil
}

func isLoopback(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// authChallenge is a 401's Bearer challenge.
type authChallenge struct{ realm, service, scope string }

func (c *authChallenge) Error() string { return "the registry asks for a token" }

func (r *Registries) head(ctx context.Context, u, token string) (string, error) {
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, u, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", strings.Join(manifestTypes, ", "))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := r.client().Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized && token == "" {
		if c := parseChallenge(resp.Header.Get("WWW-Authenticate")); c != nil {
			return "", c
		}
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s", u, resp.Status)
	}
	d := resp.Header.Get("Docker-Content-Digest")
	if !strings.HasPrefix(d, "sha256:") || len(d) != len("sha256:")+64 {
		return "", fmt.Errorf("%s gave no manifest digest (Docker-Content-Digest %q)", u, d)
	}
	return d, nil
}

// parseChallenge reads `Bearer realm="…",service="…",scope="…"`.
func parseChallenge(h string) *authChallenge {
	rest, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		return nil
	}
	c := &authChallenge{}
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		v = strings.Trim(v, `"`)
		switch k {
		case "realm":
			c.realm = v
		case "service":
			c.service = v
		case "scope":
			c.scope = v
		}
	}
	if c.realm == "" {
		return nil
	}
	return c
}

// token fetches an anonymous pull token for repo.
func (r *Registries) token(ctx context.Context, c *authChallenge, repo string) (string, error) {
	q := url.Values{}
	if c.service != "" {
		q.Set("service", c.service)
	}
	scope := c.scope
	if scope == "" {
		scope = "repository:" + repo + ":pull"
	}
	q.Set("scope", scope)
	var tok struct {
		Token       string `json:"token"`
		AccessToken string `json:"access_token"`
	}
	if err := r.get(ctx, c.realm+"?"+q.Encode(), "application/json", &tok); err != nil {
		return "", fmt.Errorf("anonymous registry token: %w", err)
	}
	if tok.Token == "" {
		tok.Token = tok.AccessToken
	}
	if tok.Token == "" {
		return "", errors.New("anonymous registry token: none given")
	}
	return tok.Token, nil
}
