package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

const validateUsage = `[flags] [SNAPSHOT | -- CMD ARGS... | --url URL]

Checks what a server sends against the published JSON Schema of the MCP
revision the session negotiated (every result, every page, every item), the
JSON-RPC envelope of every message, that each tool's inputSchema and
outputSchema is a valid JSON Schema, and lints the surface (names,
descriptions, hidden characters, instructions aimed at the model).

A tool schema without "$schema" is read as JSON Schema 2020-12 under
2025-11-25 and later (the spec's default) and as draft-07 under earlier
revisions, which did not say (their own schema files and the official
SDKs use draft-07).

With SNAPSHOT (an mcp-surface.json file) the items, capabilities and
serverInfo it holds are checked against the definitions of its revision.

Schemas come from --schema-dir (or ` + schemaDirEnv + `), laid out as
DIR/<revision>/schema.json, then from the cache, then from their published,
pinned location (checked against the pinned SHA-256, then cached). Without
network, fill the cache first with ` + "`mcp-surface schemas fetch`" + `.

Formats: text (default), json, markdown, github, junit, sarif.

Exit status: 0 nothing at or above --fail-on, 1 findings at or above it,
2 validation could not be done.`

// schemaDirEnv names a directory of published schemas, like --schema-dir.
const schemaDirEnv = "MCP_SURFACE_SCHEMA_DIR"

// schemaBaseURL replaces the published location of the schemas (tests).
var schemaBaseURL = ""

// schemaHTTPClient downloads schemas; nil means http.DefaultClient.
var schemaHTTPClient *http.Client

// userCacheDir is os.UserCacheDir computed from the given environment
// lookup (nothing below Run reads the process environment); tests
// replace it.
var userCacheDir = func(getenv func(string) string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return d, nil
		}
		return "", errors.New("%LocalAppData% is not defined")
	case "darwin", "ios":
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, "Library", "Caches"), nil
		}
		return "", errors.New("$HOME is not defined")
	case "plan9":
		if h := getenv("home"); h != "" {
			return filepath.Join(h, "lib", "cache"), nil
		}
		return "", errors.New("$home is not defined")
	}
	if d := getenv("XDG_CACHE_HOME"); d != "" {
		if !filepath.IsAbs(d) {
			return "", errors.New("$XDG_CACHE_HOME is a relative path")
		}
		return d, nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache"), nil
	}
	return "", errors.New("neither $XDG_CACHE_HOME nor $HOME are defined")
}

// schemaCacheDir is where published schemas are cached: the runner's tool
// cache in GitHub Actions (kept between jobs by the runner image), the
// user's cache directory elsewhere.
func schemaCacheDir(env *Env) (string, error) {
	if d := env.Getenv("RUNNER_TOOL_CACHE"); d != "" {
		return filepath.Join(d, "mcp-surface", "schemas"), nil
	}
	d, err := userCacheDir(env.Getenv)
	if err != nil {
		return "", fmt.Errorf("no cache directory for schemas: %w", err)
	}
	return filepath.Join(d, "mcp-surface", "schemas"), nil
}

// schemaFlags say where published schemas come from.
type schemaFlags struct {
	dir        string
	cacheDir   string
	noDownload bool
}

func (sf *schemaFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&sf.dir, "schema-dir", "", "`directory` of published MCP schemas, as DIR/<revision>/schema.json (default $"+schemaDirEnv+")")
	fs.StringVar(&sf.cacheDir, "cache-dir", "", "schema cache `directory` (default $RUNNER_TOOL_CACHE/mcp-surface/schemas in Actions, else the user cache directory)")
	fs.BoolVar(&sf.noDownload, "no-download", false, "never download schemas: use --schema-dir and the cache only")
}

// options resolves the flags and the environment into spec.Options. A
// missing cache directory is not an error: schemas are then downloaded on
// every run (or come from --schema-dir).
func (sf *schemaFlags) options(env *Env) spec.Options {
	o := spec.Options{Dir: sf.dir, CacheDir: sf.cacheDir, BaseURL: schemaBaseURL, HTTPClient: schemaHTTPClient, NoDownload: sf.noDownload}
	if o.Dir == "" {
		o.Dir = env.Getenv(schemaDirEnv)
	}
	if o.CacheDir == "" {
		if d, err := schemaCacheDir(env); err == nil {
			o.CacheDir = d
		}
	}
	return o
}

// loadSchemas loads every revision, turning "not reachable" into the
// command that fixes it.
func loadSchemas(ctx context.Context, opts spec.Options) (*spec.Schemas, error) {
	s, err := spec.Load(ctx, opts)
	return s, schemaHint(err, opts)
}

// openSchemas loads the schema of one revision now and the others only if
// validation needs them (see spec.Open): a snapshot is checked with the
// schemas it uses. An unpublished revision loads nothing (validation
// reports it).
func openSchemas(ctx context.Context, opts spec.Options, revision string) (*spec.Schemas, error) {
	var now []string
	if _, ok := spec.LookupRevision(revision); ok {
		now = append(now, revision)
	}
	s, err := spec.Open(ctx, opts, now...)
	return s, schemaHint(err, opts)
}

func runValidate(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("validate", validateUsage, env.Stderr)
	var common commonFlags
	common.register(fs, "text")
	var of outputFlags
	of.register(fs, &common)
	var sf schemaFlags
	sf.register(fs)
	var cf captureFlags
	cf.register(fs)
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	failLevel, err := common.failLevel()
	if err != nil {
		return 0, err
	}
	if err := of.check(); err != nil {
		return 0, err
	}
	live := len(cmd) > 0 || cf.url != ""
	switch {
	case live && fs.NArg() > 0:
		return 0, usagef("give a SNAPSHOT or a server (-- CMD or --url), not both")
	case !live && fs.NArg() != 1:
		return 0, usagef("nothing to validate: give a SNAPSHOT file, a server command after --, or --url URL; run `mcp-surface validate -h`")
	}
	now, err := diffNow(env)
	if err != nil {
		return 0, err
	}
	cfg, err := loadDiffConfig(common.config)
	if err != nil {
		return 0, err
	}
	var runs []validation
	if live {
		// Schemas first: no server is started when validation cannot
		// happen, and the revision it will negotiate is not known yet.
		schemas, err := loadSchemas(ctx, sf.options(env))
		if err != nil {
			return 0, err
		}
		caps, err := cf.captureAll(ctx, env, cmd)
		if err != nil {
			return 0, err
		}
		for _, c := range caps {
			found, err := spec.Validate(c, schemas)
			if err != nil {
				return 0, fmt.Errorf("validating %s: %w", c.Target, err)
			}
			v := validation{target: c.Target, revision: c.ProtocolVersion, handshake: c.Handshake, findings: found}
			if m, err := manifest.Build(c); err == nil {
				v.manifest = m
			}
			runs = append(runs, v)
		}
	} else {
		path := fs.Arg(0)
		m, err := manifest.ReadFile(path)
		if err != nil {
			return 0, err
		}
		schemas, err := openSchemas(ctx, sf.options(env), m.ProtocolVersion)
		if err != nil {
			return 0, err
		}
		found, err := spec.ValidateManifest(m, schemas)
		if err != nil {
			return 0, fmt.Errorf("validating %s: %w", path, err)
		}
		runs = append(runs, validation{target: path, revision: m.ProtocolVersion, handshake: m.Handshake, findings: found, manifest: m})
	}

	policy := cfg.Policy(now)
	var all []finding.Finding
	for i := range runs {
		kept := policy.Apply(runs[i].findings)
		finding.Sort(kept)
		runs[i].findings = kept
		all = append(all, kept...)
	}

	if err := of.emit(env, validationReport(runs), of.options(env, failLevel)); err != nil {
		return 0, err
	}
	if finding.AtOrAbove(all, failLevel) {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// validation is the outcome for one capture or snapshot.
type validation struct {
	target    string
	revision  string
	handshake string
	findings  []finding.Finding
	manifest  *manifest.Manifest // nil when the capture could not be reduced to one
}

// validationReport makes one report section per validated surface
// (several when several revisions were captured), spec and lint findings
// apart.
func validationReport(runs []validation) *report.Report {
	r := &report.Report{Version: Version}
	for _, v := range runs {
		sec := report.Section{Command: "validate", Head: &report.Side{Label: v.target, Revision: v.revision}}
		if len(runs) > 1 {
			sec.Server = "MCP " + v.revision
			var info struct {
				Name string `json:"name"`
			}
			if v.manifest != nil && json.Unmarshal(v.manifest.ServerInfo, &info) == nil && info.Name != "" {
				sec.Server = info.Name + " (MCP " + v.revision + ")"
			}
		}
		if v.handshake == "" {
			sec.Snapshot = v.target
		} else {
			sec.Notes = append(sec.Notes, fmt.Sprintf("captured %s: MCP %s negotiated via %s", v.target, v.revision, v.handshake))
		}
		if v.manifest != nil {
			sec.Head.ManifestHash = v.manifest.Fingerprints.Manifest
			sec.Subjects = report.SubjectsOf(v.manifest)
		}
		for _, f := range v.findings {
			if r, ok := rules.Lookup(f.Rule); ok && r.Kind == rules.KindLint {
				sec.Lint = append(sec.Lint, f)
			} else {
				sec.Spec = append(sec.Spec, f)
			}
		}
		r.Servers = append(r.Servers, sec)
	}
	return r
}
