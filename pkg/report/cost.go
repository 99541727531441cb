package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/cost"
)

// The renderings of a context cost table (pkg/cost) live here, beside
// the findings' renderings, because the table is full of names a
// server's author wrote: the same escaping applies to both.

// CostFormats are the formats RenderCost writes.
var CostFormats = []string{"text", "json", "markdown"}

// costNameMax bounds a tool's name in a rendered table.
const costNameMax = 80

// RenderCost writes a context cost table: text (aligned columns), json
// (the Table itself, indented) or markdown (a table for a job summary or
// a comment). Rows are in the table's order, largest first; the
// instructions come first when the server has them, as they are not a
// tool.
func RenderCost(w io.Writer, format string, t *cost.Table) error {
	var buf bytes.Buffer
	switch format {
	case "text":
		costText(&buf, t)
	case "json":
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(t); err != nil {
			return fmt.Errorf("json cost table: %w", err)
		}
		buf.Write(EscapeJSONHidden(b.Bytes()))
	case "markdown":
		costMarkdown(&buf, t)
	default:
		return fmt.Errorf("%w %q: use %s", ErrUnknownFormat, format, strings.Join(CostFormats, ", "))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func pct(share float64) string { return fmt.Sprintf("%.1f%%", 100*share) }

func costHeadline(t *cost.Table) string {
	what := fmt.Sprintf("%d tools", len(t.Tools))
	if len(t.Tools) == 1 {
		what = "1 tool"
	}
	if t.Instructions > 0 {
		what += " and instructions"
	}
	if t.Skills > 0 {
		what += ", skills"
	}
	if t.Groups > 0 {
		what += ", groups"
	}
	return fmt.Sprintf("%d tokens per session (%s, %s)", t.Total, t.Encoding, what)
}

func costText(buf *bytes.Buffer, t *cost.Table) {
	fmt.Fprintf(buf, "Context cost: %s\n\n", costHeadline(t))
	w := len("tokens")
	for _, n := range append([]int{t.Instructions, t.Skills, t.Groups}, toolTokens(t)...) {
		w = max(w, len(strconv.Itoa(n)))
	}
	fmt.Fprintf(buf, "%*s  %6s  %s\n", w, "tokens", "share", "tool")
	if t.Instructions > 0 {
		fmt.Fprintf(buf, "%*d  %6s  %s\n", w, t.Instructions, pct(t.InstructionsShare), "(instructions)")
	}
	for _, x := range extensionRows(t) {
		fmt.Fprintf(buf, "%*d  %6s  (%s)\n", w, x.Tokens, pct(x.Share), x.Name)
	}
	for _, x := range t.Tools {
		fmt.Fprintf(buf, "%*d  %6s  %s\n", w, x.Tokens, pct(x.Share), Line(x.Name, costNameMax))
	}
}

// extensionRows are the rows of the skills' frontmatter and the groups'
// entries and instructions, when the surface has them.
func extensionRows(t *cost.Table) []cost.Tool {
	var out []cost.Tool
	for _, x := range []cost.Tool{{Name: "skills", Tokens: t.Skills}, {Name: "groups", Tokens: t.Groups}} {
		if x.Tokens > 0 {
			x.Share = float64(x.Tokens) / float64(max(t.Total, 1))
			out = append(out, x)
		}
	}
	return out
}

func toolTokens(t *cost.Table) []int {
	out := make([]int, len(t.Tools))
	for i, x := range t.Tools {
		out[i] = x.Tokens
	}
	return out
}

func costMarkdown(buf *bytes.Buffer, t *cost.Table) {
	// The headline holds only numbers and the encoding's name: ours.
	fmt.Fprintf(buf, "**Context cost:** %s\n\n", costHeadline(t))
	buf.WriteString("| Tokens | Share | Tool |\n|---:|---:|:---|\n")
	if t.Instructions > 0 {
		fmt.Fprintf(buf, "| %d | %s | *instructions* |\n", t.Instructions, pct(t.InstructionsShare))
	}
	for _, x := range extensionRows(t) {
		fmt.Fprintf(buf, "| %d | %s | *%s* |\n", x.Tokens, pct(x.Share), x.Name)
	}
	for _, x := range t.Tools {
		fmt.Fprintf(buf, "| %d | %s | %s |\n", x.Tokens, pct(x.Share), Code(x.Name, costNameMax))
	}
}

// costLine is the one line a PR comment gives the context cost, in
// markdown: "Context cost: 19.7k tokens per session (+1.2k, +6%); largest:
// <code>projects_write</code> 1.3k". base is nil when there is nothing to
// compare with; then the line has no change. The largest tool is head's.
func costLine(base, head *cost.Table) string {
	if head == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Context cost: %s tokens per session", cost.Short(head.Total))
	if base != nil {
		c := cost.Compare(base, head)
		if c.Delta() == 0 {
			b.WriteString(" (unchanged)")
		} else {
			fmt.Fprintf(&b, " (%s, %s)", cost.SignedShort(c.Delta()), c.SignedPercent())
		}
	}
	if len(head.Tools) > 0 {
		top := head.Tools[0]
		fmt.Fprintf(&b, "; largest: %s %s", Code(top.Name, costNameMax), cost.Short(top.Tokens))
	}
	return b.String()
}
