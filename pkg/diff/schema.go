package diff

import (
	"bytes"
	"encoding/json"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/schemadiff"
)

// schema compares one of a tool's schemas (key "inputSchema" or
// "outputSchema"), both present, through pkg/schemadiff. The root $schema is judged by the tool-*-schema-dialect-changed rules;
// the schema comparer reads it to pick the dialect and treats it as
// metadata.
func (d *differ) schema(subj finding.Subject, key string, base, head json.RawMessage, dir schemadiff.Direction) {
	if bytes.Equal(base, head) {
		return
	}
	root := jsonptr.New(key).String()
	rewrite, undecidable := rules.InputSchemaEquivalentRewrite, rules.InputSchemaUndecidable
	if dir == schemadiff.Output {
		rewrite, undecidable = rules.OutputSchemaEquivalentRewrite, rules.OutputSchemaUndecidable
	}
	dialectOnly := sameButDialect(base, head)
	enumOnly := d.enumOrder(subj, root, base, head, dir)
	for _, c := range oneFindingPerRename(schemadiff.Compare(base, head, dir, schemadiff.Options{})) {
		if c.BasePointer == "/$schema" || c.HeadPointer == "/$schema" {
			continue
		}
		if enumOnly && c.Rule == rewrite {
			continue // reported as tool-*-enum-order-changed
		}
		if dialectOnly && c.Rule == rewrite && c.BasePointer == "" && c.HeadPointer == "" {
			continue // already tool-*-schema-dialect-changed, or an explicit default
		}
		rule := c.Rule
		msg := c.Message
		if _, ok := rules.Lookup(rule); !ok {
			// A rule the table does not know yet: report, never drop.
			msg = rule + ": " + msg
			rule = undecidable
			if _, ok := rules.Lookup(rule); !ok {
				continue
			}
		}
		// Both pointers are always meaningful (where the value is, or
		// would be); the finding points into head unless the value was
		// removed.
		p := root + c.HeadPointer
		if c.After == nil && c.Before != nil {
			p = root + c.BasePointer
		}
		fd := finding.New(rule, subj, p, msg, nilIfEmpty(c.Before), nilIfEmpty(c.After))
		fd.BasePointer, fd.HeadPointer = root+c.BasePointer, root+c.HeadPointer
		d.out = append(d.out, fd)
	}
}

// sameButDialect reports whether two schemas differ in their root $schema
// only.
func sameButDialect(a, b json.RawMessage) bool {
	ao, bo := parseObject(a), parseObject(b)
	if ao == nil || bo == nil {
		return false
	}
	delete(ao, "$schema")
	delete(bo, "$schema")
	return bytes.Equal(encodeObject(ao), encodeObject(bo))
}
