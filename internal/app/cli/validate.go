package cli

import (
	"context"
	"flag"
	"net/http"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// schemaBaseURL replaces the published location of the schemas (tests).
var schemaBaseURL = ""

// schemaHTTPClient downloads schemas; nil means http.DefaultClient.
var schemaHTTPClient *http.Client

// schemaFlags say where published schemas come from.
type schemaFlags struct {
	dir        string
	cacheDir   string
	noDownload bool
}

func (sf *schemaFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&sf.dir, "schema-dir", "", "`directory` of published MCP schemas, as DIR/<revision>/schema.json (default $"+frontend.SchemaDirEnv+")")
	fs.StringVar(&sf.cacheDir, "cache-dir", "", "schema cache `directory` (default $RUNNER_TOOL_CACHE/mcp-surface/schemas in Actions, else the user cache directory)")
	fs.BoolVar(&sf.noDownload, "no-download", false, "never download schemas: use --schema-dir and the cache only")
}

// options resolves the flags and the environment into spec.Options
// (frontend.SchemaOptions).
func (sf *schemaFlags) options(env *Env) spec.Options {
	o := spec.Options{Dir: sf.dir, CacheDir: sf.cacheDir, BaseURL: schemaBaseURL, HTTPClient: schemaHTTPClient, NoDownload: sf.noDownload}
	return frontend.SchemaOptions(o, env.Getenv)
}

// registerPipeline adds the flags of the commands that capture, validate
// and report (check, validate, probe): the report's, the schemas' and the
// capture's.
func registerPipeline(fs *flag.FlagSet) (*reportFlags, *schemaFlags, *captureFlags) {
	var rf reportFlags
	rf.register(fs)
	var sf schemaFlags
	sf.register(fs)
	var cf captureFlags
	cf.register(fs)
	return &rf, &sf, &cf
}

func runValidate(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("validate", help("validate"), env.Stderr)
	rf, sf, cf := registerPipeline(fs)
	cf.registerJobs(fs)
	server := fs.String("server", "", "only the server of this `name` in the configuration's servers: list")
	clientList := fs.String("clients", "", "check every tool against these client `profiles` too, comma-separated ("+strings.Join(clients.Names(), ", ")+"; claude-code:SERVER names the server), besides the config's clients:")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	profiles, err := clients.ParseList([]string{*clientList})
	if err != nil {
		return 0, usagef("--clients: %v", err)
	}
	live := len(cmd) > 0 || cf.url != ""
	switch {
	case live && fs.NArg() > 0:
		return 0, usagef("give a SNAPSHOT or a server (-- CMD or --url), not both")
	case fs.NArg() > 1:
		return 0, usagef("unexpected argument %q: give one SNAPSHOT file", fs.Arg(1))
	case *server != "" && (live || fs.NArg() > 0):
		return 0, usagef("--server picks a server of the configuration's servers: list; not with a SNAPSHOT, a command or --url")
	}
	if err := rf.resolve(ctx, env); err != nil {
		return 0, err
	}
	// No SNAPSHOT and no server given: the configuration's servers.
	fromList := !live && fs.NArg() == 0
	if fromList && (rf.cfg == nil || len(rf.cfg.Servers) == 0) {
		if *server != "" {
			return 0, usagef("--server %s: no configuration lists servers", *server)
		}
		return 0, usagef("nothing to validate: give a SNAPSHOT file, a server command after --, --url URL, or list servers: in %s; run `mcp-surface validate -h`", config.DefaultFile)
	}
	var res *check.Result
	if live || fromList {
		servers, secrets, revs, err := validateServers(env, cf, rf, cmd, *server)
		if err != nil {
			return 0, err
		}
		if err := cf.checkLimits(); err != nil {
			return 0, err
		}
		o := cf.options(env, servers...)
		o.Config, o.Now, o.SchemaOptions, o.Clients = rf.cfg, rf.now, sf.options(env), profiles
		res, err = check.Validate(ctx, o, revs)
		if err := frontend.WriteFrames(ctx, env.Stdout, cf.frames, res.Captures, secrets, frontend.FlagHints.Wrap(err)); err != nil {
			return 0, frontend.SchemaHint(err, o.SchemaOptions)
		}
	} else {
		m, err := manifest.ReadFileContext(ctx, fs.Arg(0), rf.maxSnapshot)
		if err != nil {
			return 0, err
		}
		o := check.Options{Config: rf.cfg, Now: rf.now, SchemaOptions: sf.options(env), Version: Version, Clients: profiles, MaxSnapshotBytes: rf.maxSnapshot}
		if res, err = check.ValidateSnapshot(ctx, o, fs.Arg(0), m); err != nil {
			return 0, frontend.SchemaHint(err, o.SchemaOptions)
		}
	}
	if err := rf.emit(ctx, env, res.Report); err != nil {
		return 0, err
	}
	if res.Fails(rf.failOn, nil) {
		return frontend.ExitFindings, nil
	}
	return frontend.ExitOK, nil
}

// validateServers are the servers validate captures: the one the command
// line names, else the configuration's (or its one called name), with
// their secrets, and the revisions to capture them at (for the
// configuration's, nil without --protocol-version: each its own).
func validateServers(env *Env, cf *captureFlags, rf *reportFlags, cmd []string, name string) ([]check.Server, []string, []string, error) {
	if len(cmd) > 0 || cf.url != "" {
		s, err := cf.server(env, cmd)
		if err != nil {
			return nil, nil, nil, err
		}
		revs, err := cf.revisions()
		return []check.Server{s}, nil, revs, err
	}
	cfgPath := rf.config
	if cfgPath == "" {
		cfgPath = config.DefaultFile
	}
	entries, err := pickServers(rf.cfg, name, cfgPath)
	if err != nil {
		return nil, nil, nil, err
	}
	var servers []check.Server
	var secrets []string
	for _, e := range entries {
		s, err := check.ServerFromConfig(e, cfgPath, "", env.Getenv)
		if err != nil {
			return nil, nil, nil, err
		}
		servers = append(servers, s)
		secrets = append(secrets, s.Secrets...)
	}
	var revs []string
	if len(cf.versions) > 0 {
		if revs, err = cf.revisions(); err != nil {
			return nil, nil, nil, err
		}
	}
	return servers, secrets, revs, nil
}
