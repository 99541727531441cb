package cost

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// Tool is one tool's cost.
type Tool struct {
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	// Share is Tokens / Table.Total, in [0, 1]; 0 when the total is 0.
	Share float64 `json:"share"`
}

// Table is the context cost of one surface. Field names are a public
// contract (the JSON rendering): add, never rename.
type Table struct {
	Encoding Encoding `json:"encoding"`
	// Tools, largest first, ties by name.
	Tools []Tool `json:"tools"`
	// Instructions is the tokens of the server's instructions (0 without).
	Instructions int `json:"instructions"`
	// InstructionsShare is Instructions / Total.
	InstructionsShare float64 `json:"instructionsShare"`
	// Skills is the tokens of the skills' frontmatter (the Skills
	// extension: hosts build their registry and show the model each
	// skill from its entry's frontmatter), each counted as its compact
	// JSON; 0 without skills.
	Skills int `json:"skills,omitempty"`
	// Groups is the tokens of the groups' entries and instructions (the
	// draft groups SEP: the model chooses a group by its description and
	// follows its instructions once it is fetched); 0 without groups.
	Groups int `json:"groups,omitempty"`
	// Total is the sum of every tool's tokens, the instructions', the
	// skills' and the groups': the server's share of the context.
	Total int `json:"total"`
}

// Options say how to count. The zero value counts in DefaultEncoding.
type Options struct {
	Encoding Encoding
}

// Compute counts a surface. A nil manifest counts as empty. It fails only
// on an unknown encoding or a tool that is not a JSON object, which a
// snapshot read by pkg/manifest never has.
func Compute(m *manifest.Manifest, o Options) (*Table, error) {
	c, err := NewCounter(o)
	if err != nil {
		return nil, err
	}
	return c.Compute(m)
}

// Counter counts surfaces in one encoding and remembers the count of each
// text it has seen, so that counting two versions of a surface (base and
// head of a diff) pays only for what changed. A Counter is not safe for
// concurrent use; Compute itself spreads the counting over the
// processors.
type Counter struct {
	enc   Encoding
	codec interface{ Count(string) (int, error) }
	// seen maps the SHA-256 of each text counted to its count: the texts
	// themselves (a few KiB per tool) would keep a second copy of the
	// surface in memory.
	seen map[textKey]int
}

type textKey [sha256.Size]byte

// NewCounter returns a Counter for the options' encoding.
func NewCounter(o Options) (*Counter, error) {
	enc, err := ParseEncoding(string(o.Encoding))
	if err != nil {
		return nil, err
	}
	c, err := codecFor(enc)
	if err != nil {
		return nil, err
	}
	return &Counter{enc: enc, codec: c, seen: map[textKey]int{}}, nil
}

// countAll counts texts, each text once: those seen before from memory,
// the others spread over the processors (the encoder is safe for
// concurrent use, and each tool's count is independent of the others).
func (c *Counter) countAll(texts []string) ([]int, error) {
	out := make([]int, len(texts))
	keys := make([]textKey, len(texts))
	var todo []int
	queued := map[textKey]bool{}
	for i, s := range texts {
		keys[i] = sha256.Sum256([]byte(s))
		if n, ok := c.seen[keys[i]]; ok {
			out[i] = n
		} else if !queued[keys[i]] {
			queued[keys[i]] = true
			todo = append(todo, i)
		}
	}
	errs := make([]error, len(texts))
	workers := min(runtime.GOMAXPROCS(0), (len(todo)+15)/16)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(todo) {
					return
				}
				i := todo[k]
				out[i], errs[i] = c.codec.Count(texts[i])
			}
		})
	}
	wg.Wait()
	for _, i := range todo {
		if errs[i] != nil {
			return nil, fmt.Errorf("counting tokens (%s): %w", c.enc, errs[i])
		}
		c.seen[keys[i]] = out[i]
	}
	for i := range texts { // repeats of a text counted just now
		out[i] = c.seen[keys[i]]
	}
	return out, nil
}

// Compute counts a surface, as the package function does.
func (c *Counter) Compute(m *manifest.Manifest) (*Table, error) {
	t := &Table{Encoding: c.enc, Tools: []Tool{}}
	if m == nil {
		return t, nil
	}
	// The tools' texts are made and counted a batch at a time, so that
	// they are never all in memory at once.
	var buf bytes.Buffer
	for start := 0; start < len(m.Tools); start += textBatch {
		batch := m.Tools[start:min(start+textBatch, len(m.Tools))]
		texts := make([]string, 0, len(batch))
		for _, it := range batch {
			buf.Reset()
			if err := writeToolText(&buf, it.Raw); err != nil {
				return nil, fmt.Errorf("counting tool %q: %w", it.ID, err)
			}
			texts = append(texts, buf.String())
		}
		counts, err := c.countAll(texts)
		if err != nil {
			return nil, err
		}
		for i, it := range batch {
			t.Tools = append(t.Tools, Tool{Name: it.ID, Tokens: counts[i]})
			t.Total += counts[i]
		}
	}
	if instructions, ok := instructionsText(m); ok {
		counts, err := c.countAll([]string{instructions})
		if err != nil {
			return nil, err
		}
		t.Instructions = counts[0]
		t.Total += t.Instructions
	}
	if err := c.extensions(t, m); err != nil {
		return nil, err
	}
	for i := range t.Tools {
		t.Tools[i].Share = share(t.Tools[i].Tokens, t.Total)
	}
	t.InstructionsShare = share(t.Instructions, t.Total)
	slices.SortFunc(t.Tools, func(a, b Tool) int {
		return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), strings.Compare(a.Name, b.Name))
	})
	return t, nil
}

// textBatch is how many tools' texts Compute holds at once: enough for
// every processor to have work.
const textBatch = 1024

func share(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// ToolText returns the counted text of one tool (see the package
// documentation): {"name","description","inputSchema"}, compact, in that
// order, each member only when the tool has it.
func ToolText(it manifest.Item) (string, error) {
	var buf bytes.Buffer
	if err := writeToolText(&buf, it.Raw); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// countedMembers are the members of a tool that clients send to the
// model, in the order they send them.
var countedMembers = []string{"name", "description", "inputSchema"}

func writeToolText(buf *bytes.Buffer, raw json.RawMessage) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil || members == nil {
		return fmt.Errorf("the tool is not a JSON object")
	}
	buf.WriteByte('{')
	first := true
	for _, k := range countedMembers {
		v, ok := members[k]
		if !ok {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.WriteByte('"')
		buf.WriteString(k)
		buf.WriteString(`":`)
		// Members of a canonical item are compact already; compacting
		// again keeps the count right for an Item built by hand.
		if err := json.Compact(buf, v); err != nil {
			return fmt.Errorf("member %s: %w", k, err)
		}
	}
	buf.WriteByte('}')
	return nil
}

// instructionsText returns the server's instructions as the text a host
// puts into the system prompt; ok is false when there are none (absent,
// null, empty or not a string).
func instructionsText(m *manifest.Manifest) (string, bool) {
	if m == nil || len(m.Instructions) == 0 {
		return "", false
	}
	var s string
	if err := json.Unmarshal(m.Instructions, &s); err != nil || s == "" {
		return "", false
	}
	return s, true
}
