package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func runExplain(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("explain", "RULE | --list", env.Stderr)
	list := fs.Bool("list", false, "list every rule: ID, default level and summary")
	format := fs.String("format", "text", "output format: text|json")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if *format != "text" && *format != "json" {
		return 0, usagef("unknown --format %q; use text or json", *format)
	}
	if *list {
		if fs.NArg() > 0 {
			return 0, usagef("--list takes no rule")
		}
		return ExitOK, rules.WriteList(env.Stdout, *format == "json")
	}
	if fs.NArg() != 1 {
		return 0, usagef("need one RULE (or --list)")
	}
	id := fs.Arg(0)
	r, ok := rules.Lookup(id)
	if !ok {
		msg := fmt.Sprintf("unknown rule %q", id)
		if sug := rules.Nearest(id); len(sug) > 0 {
			msg += "; did you mean " + strings.Join(sug, ", ") + "?"
		}
		return 0, usagef("%s (run `mcp-surface explain --list` for every rule)", msg)
	}
	if *format == "json" {
		return ExitOK, rules.WriteJSON(env.Stdout, rules.DocOf(r))
	}
	return ExitOK, rules.WriteText(env.Stdout, r)
}
