package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mcp-surface/mcp-surface/internal/textdiff"
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
		return ExitOK, explainList(env.Stdout, *format)
	}
	if fs.NArg() != 1 {
		return 0, usagef("need one RULE (or --list)")
	}
	id := fs.Arg(0)
	r, ok := rules.Lookup(id)
	if !ok {
		msg := fmt.Sprintf("unknown rule %q", id)
		if sug := suggestRules(id); len(sug) > 0 {
			msg += "; did you mean " + strings.Join(sug, ", ") + "?"
		}
		return 0, usagef("%s (run `mcp-surface explain --list` for every rule)", msg)
	}
	if *format == "json" {
		return ExitOK, writeExplainJSON(env.Stdout, ruleDoc(r))
	}
	w := env.Stdout
	fmt.Fprintln(w, r.ID)
	fmt.Fprintf(w, "  kind:      %s\n", r.Kind)
	if r.Severity != "" {
		fmt.Fprintf(w, "  severity:  %s (level %s)\n", r.Severity, r.Level)
	} else {
		fmt.Fprintf(w, "  level:     %s\n", r.Level)
	}
	if r.Direction != "" {
		fmt.Fprintf(w, "  direction: %s\n", r.Direction)
	}
	if len(r.Tags) > 0 {
		fmt.Fprintf(w, "  tags:      %s\n", strings.Join(r.Tags, ", "))
	}
	fmt.Fprintf(w, "  summary:   %s\n\n%s\n", r.Summary, r.Help)
	return ExitOK, nil
}

// explainRule is a rule in the JSON output.
type explainRule struct {
	ID        string         `json:"id"`
	Kind      rules.Kind     `json:"kind"`
	Severity  rules.Severity `json:"severity,omitempty"`
	Level     rules.Level    `json:"level"`
	Direction string         `json:"direction,omitempty"`
	Tags      []string       `json:"tags"`
	Summary   string         `json:"summary"`
	Help      string         `json:"help"`
}

func ruleDoc(r rules.Rule) explainRule {
	tags := r.Tags
	if tags == nil {
		tags = []string{}
	}
	return explainRule{r.ID, r.Kind, r.Severity, r.Level, r.Direction, tags, r.Summary, r.Help}
}

func writeExplainJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func explainList(w io.Writer, format string) error {
	all := rules.All()
	if format == "json" {
		docs := make([]explainRule, len(all))
		for i, r := range all {
			docs[i] = ruleDoc(r)
		}
		return writeExplainJSON(w, docs)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range all {
		sev := string(r.Severity)
		if sev == "" {
			sev = string(r.Kind)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Level, sev, r.Summary)
	}
	return tw.Flush()
}

// suggestRules returns up to three rule IDs close to id: by edit distance,
// then by substring.
func suggestRules(id string) []string {
	type cand struct {
		id string
		d  int
	}
	var cs []cand
	for _, r := range rules.All() {
		if d := ruleEditDistance(id, r.ID); d <= max(2, len(id)/4) {
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

func ruleEditDistance(a, b string) int {
	return textdiff.Levenshtein([]rune(a), []rune(b))
}
