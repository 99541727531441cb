package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
)

// GitHubCommentLimit is the largest issue or pull request comment GitHub
// accepts, in characters.
const GitHubCommentLimit = 65536

// DefaultMarkdownBudget is the default bound of the markdown report, in
// bytes (a byte count is never below the character count GitHub applies),
// leaving room for a publisher's additions.
const DefaultMarkdownBudget = 64000

// minMarkdownBudget is the smallest budget honoured: the verdict, the
// counts and what to do need about this much.
const minMarkdownBudget = 4000

// GitHubSummaryLimit is the largest job summary GitHub shows for a step,
// in bytes.
const GitHubSummaryLimit = 1 << 20

// DefaultSummaryBudget bounds the markdown report in Options.Full mode (the
// job summary), leaving room for what a publisher appends.
const DefaultSummaryBudget = GitHubSummaryLimit - 16<<10

// A cut is one thing the budget may leave out; cuts are made in the order
// of their keys (lowest first): details before rows, the least severe
// first, resources before tools, the last of a list first.
type cut struct {
	key [4]int
	set func(bool)
	// what the cut is, for the note that says what was left out
	detail, row bool
}

// Classes of cuts, in the order they are made.
const (
	cutDetail = iota
	cutYAML
	cutFoldRow
	cutAckRow
	cutBreakingRow
)

// renderMarkdown writes the PR comment, or with Options.Full the job
// summary. Everything above the breaking table and the table itself stay
// whole; to fit the budget the renderer leaves out details first (the
// least severe first), then the acknowledgement lines, the rows of the
// collapsed warnings and notes, the acknowledged rows, and only then rows
// of the breaking table, from its end, where resources come after tools.
// What it left out is said, with a link to the full report when known.
func renderMarkdown(w io.Writer, r *Report, o Options) error {
	budget := o.MaxMarkdownBytes
	switch {
	case budget <= 0 && o.Full:
		budget = DefaultSummaryBudget
	case budget <= 0:
		budget = DefaultMarkdownBudget
	}
	budget = max(budget, minMarkdownBudget)
	b := newMDBuilder(r, o)
	v, cuts := b.view()
	out, err := b.execute(v, cuts, 0)
	if err != nil || len(out) <= budget {
		if err == nil {
			_, err = w.Write(out)
		}
		return err
	}
	slices.SortStableFunc(cuts, func(a, b cut) int { return slices.Compare(a.key[:], b.key[:]) })
	var trialErr error
	k := sort.Search(len(cuts)+1, func(k int) bool {
		x, err := b.execute(v, cuts, k)
		if err != nil {
			trialErr = err
			return true
		}
		return len(x) <= budget
	})
	if trialErr != nil {
		return trialErr
	}
	if out, err = b.execute(v, cuts, k); err != nil {
		return err
	}
	if len(out) > budget {
		// Pathological (thousands of servers): keep whole lines up to the
		// budget; the marker and the headline come first.
		end := bytes.LastIndexByte(out[:budget-200], '\n')
		out = append(out[:end+1:end+1], []byte("\n*The rest of this report did not fit; the JSON report (`--format json`) has every finding.*\n")...)
	}
	_, err = w.Write(out)
	return err
}

// execute applies the first k cuts, says what they left out, and renders.
func (b *mdBuilder) execute(v *mdView, cuts []cut, k int) ([]byte, error) {
	details, rows := 0, 0
	for i, c := range cuts {
		c.set(i < k)
		if i < k && c.detail {
			details++
		}
		if i < k && c.row {
			rows++
		}
	}
	v.Shortened = ""
	if k > 0 {
		var parts []string
		if details > 0 {
			parts = append(parts, plural(details, "subject's details", "subjects' details"))
		}
		if rows > 0 {
			parts = append(parts, plural(rows, "table row", "table rows"))
		}
		if k > details+rows {
			parts = append(parts, "the acknowledgement lines")
		}
		where := "the job summary and the JSON report (`--format json`) have everything"
		if u := safeURL(nonEmpty(b.o.SummaryURL, b.o.RunURL)); u != "" && !b.o.Full {
			where = "the [full report](" + u + ") has everything"
		}
		limit := fmt.Sprintf("GitHub's %d-character comment limit", GitHubCommentLimit)
		if b.o.Full {
			limit = fmt.Sprintf("GitHub's %d-byte job summary limit", GitHubSummaryLimit)
			where = "the JSON report (`--format json`) has everything"
		}
		v.Shortened = fmt.Sprintf("Shortened to stay under %s: %s left out; %s.", limit, joinAnd(parts), where)
	}
	var buf bytes.Buffer
	if err := mdTemplate().Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
