package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// schema compares one of a tool's schemas (key "inputSchema" or
// "outputSchema"), both present, through pkg/diff/schemadiff. The root $schema is judged by the tool-*-schema-dialect-changed rules;
// the schema comparer reads it to pick the dialect and treats it as
// metadata.
func (d *differ) schema(subj finding.Subject, key string, base, head json.RawMessage, dir schemadiff.Direction) {
	if bytes.Equal(base, head) {
		return
	}
	// Compared as clients use them: only objects arrive at the root.
	base, head = asObjects(base), asObjects(head)
	if bytes.Equal(base, head) {
		return
	}
	root := jsonptr.New(key).String()
	rewrite, undecidable := rules.InputSchemaEquivalentRewrite, rules.InputSchemaUndecidable
	if dir == schemadiff.Output {
		rewrite, undecidable = rules.OutputSchemaEquivalentRewrite, rules.OutputSchemaUndecidable
	}
	dialectOnly := sameButDialect(base, head)
	pair := witness.NewPair(base, head, dir, witness.Options{Cache: d.schemas})
	enumOnly := d.enumOrder(subj, root, base, head, dir)
	changes := oneFindingPerRename(schemadiff.Compare(base, head, dir, schemadiff.Options{}))
	for _, c := range changes {
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
		if rule == c.Rule {
			prove(&fd, c, changes, pair, dir)
		}
		d.out = append(d.out, fd)
	}
}

// objectType is the root type of a schema whose instances are always
// JSON objects.
var objectType = json.RawMessage(`"object"`)

// asObjects is a tool schema as clients use it. A tool's arguments are
// always a JSON object (CallToolRequestParams.arguments in every MCP
// revision) and so is a result's structuredContent: only the object part
// of the root's type is ever exercised. So a root with no type, or a
// type that admits objects among others, is compared as "type": "object",
// and adding or narrowing a root type that still admits objects is no
// change, while every witness the search finds is an object. A root type
// that admits no object is left as written: that change breaks every
// call, and says so.
func asObjects(raw json.RawMessage) json.RawMessage {
	o := parseObject(raw)
	if o == nil {
		return raw
	}
	t, ok := o["type"]
	if ok {
		if bytes.Equal(t, objectType) {
			return raw
		}
		var one string
		var many []string
		switch {
		case json.Unmarshal(t, &one) == nil:
			many = []string{one}
		case json.Unmarshal(t, &many) == nil:
		default:
			return raw // not a type a validator accepts: judged as written
		}
		if !slices.Contains(many, "object") {
			return raw
		}
	}
	o["type"] = objectType
	return encodeObject(o)
}

// sameButDialect reports whether two schemas differ in their root $schema
// only.
func sameButDialect(a, b json.RawMessage) bool {
	if k := []byte(`"$schema"`); !bytes.Contains(a, k) && !bytes.Contains(b, k) {
		return false // (the caller compared the bytes already)
	}
	ao, bo := parseObject(a), parseObject(b)
	if ao == nil || bo == nil {
		return false
	}
	delete(ao, "$schema")
	delete(bo, "$schema")
	return bytes.Equal(encodeObject(ao), encodeObject(bo))
}

// structural lists the breaks that keep their level without a witness:
// a named argument that must now be sent, a field clients read that may
// now be missing, a renamed or removed member of a closed object. Those
// break every caller that used the old shape, whatever the values, and a
// search that fails to build the instance (a schema it cannot fill) must
// not turn them into warnings. contentEncoding and contentMediaType are
// annotations to a validator, so no instance can show their break, yet the
// bytes clients decode change meaning. Each still gets a witness when one
// is found (a call without the new required argument).
var structural = map[string]bool{
	rules.InputRequiredPropertyAdded:            true,
	rules.InputRequiredPropertyWithDefaultAdded: true,
	rules.InputPropertyBecameRequired:           true,
	rules.InputPropertyRemovedClosedSchema:      true,
	rules.InputPropertyRemovedNotCovered:        true,
	rules.InputPropertyRenamed:                  true,
	rules.OutputRequiredPropertyRemoved:         true,
	rules.OutputPropertyBecameOptional:          true,
	rules.OutputPropertyRenamed:                 true,
	rules.OutputPropertyAddedToClosedSchema:     true,
	rules.OutputContentEncodingChanged:          true,
	rules.OutputContentMediaTypeChanged:         true,
}

// Structural reports whether a schema rule is a structural break: one
// that keeps its level without a witness (see structural).
func Structural(rule string) bool { return structural[rule] }

// patternSearchLimit bounds the transitions a pattern inclusion proof
// tries.
const patternSearchLimit = 100000

// prove applies "errors need proof" to one schema finding (its rule and
// pointers, hence its fingerprint, are left alone; the policy overrides
// that run later still win):
//   - a breaking change with a witness keeps its level and carries it;
//     after a search that tried every candidate without one it is a
//     warning (risky) that says so, unless it is structural; a search
//     that gave up at a bound (budget, route, depth) proves nothing
//     either way, so the level stands and the message says where it
//     stopped (fail closed);
//   - a risky change with a witness is raised to error (breaking): an
//     overlap the rules could only suspect, a change they could not decide;
//   - a replaced pattern is what the search shows: a witness makes it an
//     error, a proven inclusion in the compatible direction a note;
//   - minor, patch and info changes are not searched.
func prove(fd *finding.Finding, c schemadiff.Change, changes []schemadiff.Change, pair *witness.Pair, dir schemadiff.Direction) {
	switch fd.Severity {
	case rules.SeverityBreaking, rules.SeverityRisky:
	default:
		return
	}
	res := findAttributable(pair, c, changes, fd.Severity == rules.SeverityRisky)
	if res.Found {
		w := res.Witness
		fd.Witness = &w
		if fd.Severity == rules.SeverityRisky {
			fd.Message = strings.TrimSuffix(fd.Message, "; inclusion could not be proven") + "; proven by a witness"
		}
		fd.Level, fd.Severity = rules.LevelError, rules.SeverityBreaking
		return
	}
	if fd.Rule == rules.InputPatternChanged || fd.Rule == rules.OutputPatternChanged {
		provePattern(fd, c, dir)
		return
	}
	if fd.Severity != rules.SeverityBreaking || structural[fd.Rule] {
		return
	}
	what, side := "call", finding.SideBase
	if dir == schemadiff.Output {
		what, side = "result", finding.SideHead
	}
	if res.GaveUp != "" {
		// A bound is not evidence of safety: the rule's level stands.
		fd.Message += fmt.Sprintf("; not proven: the search gave up after %d validations, at %s", res.Tried, res.GaveUp)
		return
	}
	fd.Level, fd.Severity = rules.LevelWarning, rules.SeverityRisky
	if err := pair.Err(); err != nil {
		fd.Message += "; not proven: the schemas could not be compiled to check a " + what + " (" + clip(err.Error(), 160) + ")"
		return
	}
	fd.Message += "; not proven: the search tried every candidate and found no " + what + " the " + side + " schema accepts and the other rejects"
}

// findAttributable is pair.Find, except for a change to a keyword that
// never validates (an annotation: default, deprecated, format, ...): no
// instance can be rejected because of it, so a witness found "near" it is
// another change's, and proves nothing about this one.
//
// A witness that would raise a risky change to error must be rejected at
// the change itself, not inside another change of the schema: "oneOf
// branch 0 may now overlap" is not proven by a call its narrowed
// maxLength rejects, nor "composition keywords changed" at an object by a
// call one of its own keywords' findings already proves. A witness that
// is not an object proves nothing (see asObjects). A breaking
// change keeps any witness rejected at it (a prefixItems entry added is
// proven by the call its new type rejects, which a type finding below it
// reports too).
func findAttributable(pair *witness.Pair, c schemadiff.Change, changes []schemadiff.Change, raise bool) witness.Result {
	if annotationKeyword(c.BasePointer) || annotationKeyword(c.HeadPointer) {
		return witness.Result{}
	}
	var r witness.Result
	if raise {
		r = pair.Search(c, changes...)
	} else {
		r = pair.Search(c)
	}
	// Only objects arrive (asObjects): an instance of another type is no
	// call a client could make, nor a result it could receive.
	if v := bytes.TrimSpace(r.Witness.Value); r.Found && (len(v) == 0 || v[0] != '{') {
		r.Witness, r.Found = finding.Witness{}, false
	}
	return r
}

// annotationKeyword reports whether a schema pointer ends at a keyword
// that is only an annotation to a validator (formats are annotations
// here, as everywhere in mcp-surface); a property or definition of that
// name is not one.
func annotationKeyword(ptr string) bool {
	p, err := jsonptr.Parse(ptr)
	if err != nil {
		return false
	}
	toks := p.Tokens()
	if len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	if len(toks) >= 2 {
		switch toks[len(toks)-2] {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependentRequired":
			return false
		}
	}
	switch last {
	case "default", "deprecated", "readOnly", "writeOnly", "format", "contentEncoding", "contentMediaType", "contentSchema":
		return true
	}
	return jsonschemakw.Doc(last)
}

// provePattern turns a replaced pattern without a witness into a note when
// the compatible direction is proven: for input every string the old
// pattern matched the new one matches, for output every string the new one
// matches the old one did.
func provePattern(fd *finding.Finding, c schemadiff.Change, dir schemadiff.Direction) {
	var before, after string
	if json.Unmarshal(c.Before, &before) != nil || json.Unmarshal(c.After, &after) != nil {
		return
	}
	acc, rej, claim := before, after, "proven widening: the new pattern matches every string the old one did"
	if dir == schemadiff.Output {
		acc, rej, claim = after, before, "proven narrowing: the old pattern matches every string the new one does"
	}
	if _, _, proven := witness.PatternDifference(acc, rej, patternSearchLimit); !proven {
		return
	}
	fd.Level, fd.Severity = rules.LevelNote, rules.SeverityMinor
	if i := strings.LastIndex(fd.Message, "; inclusion could not be proven"); i >= 0 {
		fd.Message = fd.Message[:i]
	}
	fd.Message += "; " + claim
}

// clip bounds a message part to n bytes, cut at a rune boundary.
func clip(s string, n int) string { return textscan.Clip(s, n, "…") }
