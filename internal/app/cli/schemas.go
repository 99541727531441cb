package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

func runSchemas(ctx context.Context, env *Env, args []string) (int, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := newFlagSet("schemas", help("schemas"), env.Stderr)
		if err := parseFlags(fs, args); err != nil {
			return 0, err
		}
		return 0, usagef("need a subcommand: list or fetch; run `mcp-surface schemas -h`")
	}
	switch args[0] {
	case "list":
		return runSchemasList(ctx, env, args[1:])
	case "fetch":
		return runSchemasFetch(ctx, env, args[1:])
	}
	return 0, usagef("unknown subcommand %q: use list or fetch", args[0])
}

func runSchemasFetch(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("schemas fetch", "[--revision R]... [--cache-dir DIR]", env.Stderr)
	var revs stringList
	fs.Var(&revs, "revision", "MCP `revision` to fetch (repeatable; default every known revision: "+strings.Join(spec.RevisionNames(), ", ")+")")
	cacheDir := fs.String("cache-dir", "", "write to this `directory` (default $RUNNER_TOOL_CACHE/mcp-surface/schemas in Actions, else the user cache directory)")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	for _, r := range revs {
		if _, ok := spec.LookupRevision(r); !ok {
			return 0, usagef("--revision %q: use one of %s", r, strings.Join(spec.RevisionNames(), ", "))
		}
	}
	if len(revs) == 0 {
		revs = spec.RevisionNames()
	}
	opts := spec.Options{CacheDir: *cacheDir, BaseURL: schemaBaseURL, HTTPClient: schemaHTTPClient}
	if opts.CacheDir == "" {
		d, err := spec.CacheDir(env.Getenv)
		if err != nil {
			return 0, fmt.Errorf("%w; pass --cache-dir DIR", err)
		}
		opts.CacheDir = d
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, name := range slices.Compact(slices.Sorted(slices.Values(revs))) {
		path, err := spec.Fetch(ctx, opts, name)
		if err != nil {
			tw.Flush()
			return 0, err
		}
		rev, _ := spec.LookupRevision(name)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", name, rev.SHA256, path)
	}
	return frontend.ExitOK, tw.Flush()
}

func runSchemasList(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("schemas list", "[--schema-dir DIR] [--cache-dir DIR]", env.Stderr)
	var sf schemaFlags
	fs.StringVar(&sf.dir, "schema-dir", "", "`directory` of published MCP schemas, as DIR/<revision>/schema.json (default $"+frontend.SchemaDirEnv+")")
	fs.StringVar(&sf.cacheDir, "cache-dir", "", "schema cache `directory` (default $RUNNER_TOOL_CACHE/mcp-surface/schemas in Actions, else the user cache directory)")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	sf.noDownload = true
	opts := sf.options(env)
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tDIALECT\tSHA-256\tFOUND")
	broken := false
	for _, rev := range spec.Revisions() {
		dialect := "2020-12"
		if rev.Dialect == spec.DialectDraft07 {
			dialect = "draft-07"
		}
		var where string
		s, err := spec.LoadRevision(ctx, opts, rev.Name)
		var nf *spec.NotFoundError
		var de *spec.DigestError
		switch {
		case err == nil:
			where = fmt.Sprintf("%s %s", s.Origin, s.Location)
		case errors.As(err, &nf):
			where = "not found; `mcp-surface schemas fetch` downloads it from " + rev.URL(schemaBaseURL)
		case errors.As(err, &de):
			broken = true
			where = fmt.Sprintf("REFUSED: %s has SHA-256 %s", de.Location, de.Got)
		default:
			broken = true
			where = "error: " + err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", rev.Name, dialect, rev.SHA256, report.Line(where, 400))
	}
	if err := tw.Flush(); err != nil {
		return 0, err
	}
	if broken {
		return 0, errors.New("a schema file does not match its pinned digest (see REFUSED above); delete it and run `mcp-surface schemas fetch`")
	}
	return frontend.ExitOK, nil
}
