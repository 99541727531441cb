package cli

import (
	"context"
	"flag"
	"net/http"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// schemaDirEnv names a directory of published schemas, like --schema-dir
// (see frontend.SchemaDirEnv).
const schemaDirEnv = frontend.SchemaDirEnv

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
	fs.StringVar(&sf.dir, "schema-dir", "", "`directory` of published MCP schemas, as DIR/<revision>/schema.json (default $"+schemaDirEnv+")")
	fs.StringVar(&sf.cacheDir, "cache-dir", "", "schema cache `directory` (default $RUNNER_TOOL_CACHE/mcp-surface/schemas in Actions, else the user cache directory)")
	fs.BoolVar(&sf.noDownload, "no-download", false, "never download schemas: use --schema-dir and the cache only")
}

// options resolves the flags and the environment into spec.Options
// (frontend.SchemaOptions).
func (sf *schemaFlags) options(env *Env) spec.Options {
	o := spec.Options{Dir: sf.dir, CacheDir: sf.cacheDir, BaseURL: schemaBaseURL, HTTPClient: schemaHTTPClient, NoDownload: sf.noDownload}
	return frontend.SchemaOptions(o, env.Getenv)
}

func runValidate(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("validate", help("validate"), env.Stderr)
	var rf reportFlags
	rf.register(fs)
	var sf schemaFlags
	sf.register(fs)
	var cf captureFlags
	cf.register(fs)
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
	case !live && fs.NArg() != 1:
		return 0, usagef("nothing to validate: give a SNAPSHOT file, a server command after --, or --url URL; run `mcp-surface validate -h`")
	}
	if err := rf.resolve(ctx, env); err != nil {
		return 0, err
	}
	var res *check.Result
	if live {
		s, err := cf.server(env, cmd)
		if err != nil {
			return 0, err
		}
		revs, err := cf.revisions()
		if err != nil {
			return 0, err
		}
		if err := cf.checkLimits(); err != nil {
			return 0, err
		}
		o := cf.options(env, s)
		o.Config, o.Now, o.SchemaOptions, o.Clients = rf.cfg, rf.now, sf.options(env), profiles
		res, err = check.Validate(ctx, o, revs)
		if err := cf.writeFrames(ctx, env, res.Captures, nil, frontend.FlagHints.Wrap(err)); err != nil {
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
		return ExitFindings, nil
	}
	return ExitOK, nil
}
