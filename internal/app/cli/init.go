package cli

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/initproject"
	"github.com/mcp-surface/mcp-surface/internal/app/version"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
)

// init sets a repository up: the first snapshot, the workflow that checks
// every pull request against it, and the ecosystem's way to refresh it
// (internal/app/initproject knows the project; this maps the flags).

func runInit(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("init", "[--force] [-o mcp-surface.json] [--action-ref REF] [-- CMD ARGS...]", env.Stderr)
	force := fs.Bool("force", false, "overwrite what init writes (the snapshot, the workflow, the package.json script)")
	out := fs.String("o", "mcp-surface.json", "the snapshot `file`, from the current directory")
	ref := fs.String("action-ref", "", "the action's `ref` (tag, branch or commit) the workflow uses; default: this binary's release")
	cmd, err := parseServerFlags(fs, args)
	if err != nil {
		return 0, err
	}
	uses, release, err := initproject.ActionRef(version.Get().Version, *ref)
	if err != nil {
		return 0, usagef("%s", err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return 0, fmt.Errorf("init: the current directory: %w", err)
	}
	p, err := initproject.Open(ctx, dir, nil)
	if err != nil {
		return 0, err
	}
	if cmd, err = p.Command(cmd); err != nil {
		return 0, err
	}
	if strings.Contains(strings.Join(cmd, " "), "${{") {
		return 0, usagef("the server command contains ${{, which a workflow would read as an expression: start the server from a script instead")
	}
	if filepath.IsAbs(*out) || strings.HasPrefix(filepath.ToSlash(filepath.Clean(*out)), "../") {
		return 0, usagef("-o %s: name the snapshot inside the repository, relative to the current directory", *out)
	}
	snapshot := filepath.ToSlash(filepath.Clean(*out))

	// What would be written, checked before the server starts.
	conflicts, err := p.Conflicts(filepath.Join(p.Dir, *out), snapshot)
	if err != nil {
		return 0, err
	}
	if len(conflicts) > 0 && !*force {
		return 0, usagef("already there: %s; init never overwrites: rerun with --force to replace", strings.Join(conflicts, ", "))
	}
	if err := frontend.CheckOutput("-o", filepath.Join(p.Dir, *out)); err != nil {
		return 0, err
	}
	if !release {
		fmt.Fprintf(env.Stderr, "mcp-surface init: this build is not a release, so the workflow uses %s: pin it to a release tag (mcp-surface --version of a release prints it), or rerun with --action-ref\n", uses)
	}

	fmt.Fprintf(env.Stdout, "%s project (%s); server: %s\n", p.Eco.Name, p.Eco.Marker, frontend.LogText(cmdline.Join(cmd)))
	code, err := runSnapshot(ctx, env, append([]string{"-o", *out, "--"}, cmd...))
	if err != nil {
		return 0, err
	}
	if code != frontend.ExitOK {
		return code, nil
	}
	wrote, err := p.Write(ctx, cmd, snapshot, uses)
	if err != nil {
		return 0, err
	}
	fmt.Fprintln(env.Stdout, "wrote:")
	for _, w := range append([]string{filepath.Join(p.Rel, snapshot)}, wrote...) {
		fmt.Fprintf(env.Stdout, "  %s\n", frontend.LogText(path.Clean(filepath.ToSlash(w))))
	}
	fmt.Fprintln(env.Stdout, "next: review and commit them; every pull request is then checked against the snapshot.")
	if p.Eco.Name == "node" {
		fmt.Fprintf(env.Stdout, "refresh the snapshot with `npm run %s` (it needs `npm install --save-dev mcp-surface`).\n", initproject.Script)
	} else {
		fmt.Fprintf(env.Stdout, "refresh the snapshot with: %s\n", frontend.LogText(initproject.Refresh(snapshot, cmd)))
	}
	return frontend.ExitOK, nil
}
