package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func runExplain(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("explain", "RULE | digests | --list", env.Stderr)
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
		return frontend.ExitOK, rules.WriteList(env.Stdout, *format == "json")
	}
	if fs.NArg() != 1 {
		return 0, usagef("need one RULE (or --list)")
	}
	id := fs.Arg(0)
	if id == "digests" {
		_, err := fmt.Fprint(env.Stdout, digestsText)
		return frontend.ExitOK, err
	}
	r, ok := rules.Lookup(id)
	if !ok {
		msg := fmt.Sprintf("unknown rule %q", id)
		if sug := nearestRules(id); len(sug) > 0 {
			msg += "; did you mean " + strings.Join(sug, ", ") + "?"
		}
		return 0, usagef("%s (run `mcp-surface explain --list` for every rule)", msg)
	}
	if *format == "json" {
		return frontend.ExitOK, rules.WriteJSON(env.Stdout, rules.DocOf(r))
	}
	return frontend.ExitOK, rules.WriteText(env.Stdout, r)
}

// nearestRules returns up to three rule IDs close to an unknown id: by edit
// distance, then by substring (rules.Suggest).
func nearestRules(id string) []string {
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	for _, r := range rules.All() {
		if d := textdiff.Levenshtein([]rune(id), []rune(r.ID)); d <= max(2, len(id)/4) {
			cs = append(cs, cand{r.ID, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, c := range cs {
		if len(out) == 3 {
			break
		}
		out = append(out, c.id)
	}
	for _, s := range rules.Suggest(id) {
		if len(out) == 3 {
			break
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// digestsText is `explain digests`: which hash of a snapshot is for what.
const digestsText = `The hashes of a snapshot (mcp-surface.json) and of each lock entry:

  fingerprints.manifest  mcp-surface's identity of the whole surface: SHA-256
                         of its canonical form (keys sorted, required and type
                         sorted, numbers exact). Equal manifests, equal
                         surfaces: what diff and lock --check compare.
  full, contract, prose  per item, on the same canonical form: the whole item,
                         what a client's calls depend on, the text the model
                         reads. For reviewers and reports.
  jcs                    per item, the interoperable definition hash: SHA-256
                         of the RFC 8785 (JCS) form of the item exactly as
                         served, nothing dropped or defaulted ("tool definition
                         hash v1"). Recorded at capture; absent for an item
                         with a repeated member name (it has no such form).
  fingerprints.jcs       per list, the set digest of that recipe (SHA-256 of
                         the sorted name:jcs lines), and the instructions hash
                         (SHA-256 of their UTF-8; null without instructions).
                         For checking a surface with other tools, and theirs
                         with this one.

Only fingerprints.manifest decides whether a surface changed.
`
