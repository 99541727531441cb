package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// toolSchemaBase is the base URI a tool schema is compiled under. It is
// no real location: relative references resolve against it and are then
// refused, and messages strip it again.
const toolSchemaBase = "mcp-surface:///schema.json"

// toolSchema is the outcome of compiling one tool schema.
type toolSchema struct {
	dialect string
	sch     *jsonschema.Schema // nil when err is set
	err     error
	// unknownDialect is a $schema that is not a JSON Schema meta-schema.
	unknownDialect string
}

// dialects maps the meta-schema URIs mcp-surface understands (without
// scheme and fragment) onto a name for messages.
var dialects = map[string]string{
	"json-schema.org/draft-04/schema":      "JSON Schema draft-04",
	"json-schema.org/draft-06/schema":      "JSON Schema draft-06",
	"json-schema.org/draft-07/schema":      "JSON Schema draft-07",
	"json-schema.org/draft/2019-09/schema": "JSON Schema 2019-09",
	"json-schema.org/draft/2020-12/schema": "JSON Schema 2020-12",
	"json-schema.org/schema":               "JSON Schema (latest)",
}

func dialectKey(uri string) string {
	u := strings.TrimSuffix(uri, "#")
	u = strings.TrimPrefix(u, "http://")
	u = strings.TrimPrefix(u, "https://")
	return u
}

func dialectName(uri string) string {
	if n, ok := dialects[dialectKey(uri)]; ok {
		return n
	}
	return uri
}

// compileToolSchema compiles a tool's inputSchema or outputSchema, read
// in its $schema's dialect or the revision's default. Identical schemas
// are compiled once per validation.
func (k *checker) compileToolSchema(v any) *toolSchema {
	dialect := k.rev.ToolSchemaDialect
	if dialect == "" {
		dialect = Dialect202012
	}
	if m, ok := v.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			if _, known := dialects[dialectKey(s)]; !known {
				return &toolSchema{dialect: s, unknownDialect: s}
			}
			dialect = s
		}
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return &toolSchema{dialect: dialect, err: err}
	}
	key := dialect + "\x00" + string(canon)
	if ts, ok := k.toolSchemas[key]; ok {
		return ts
	}
	ts := &toolSchema{dialect: dialect}
	ts.sch, ts.err = compileSchema(dialect, v)
	k.toolSchemas[key] = ts
	return ts
}

// reportToolSchema reports what the check of a tool's schema found.
func (k *checker) reportToolSchema(it *item, field string, sc *schemaCheck) {
	invalid := rules.ToolInputSchemaInvalid
	if field == "outputSchema" {
		invalid = rules.ToolOutputSchemaInvalid
	}
	base := jsonptr.New(field).String()
	if sc.unknownDialect != "" {
		k.add(rules.ToolSchemaUnresolvable, it.subj, base+"/$schema",
			fmt.Sprintf("%s: %s declares \"$schema\": %q, which is not a JSON Schema meta-schema mcp-surface knows (draft-04 to 2020-12); it was not checked", it.label(), field, sc.unknownDialect))
		return
	}
	err := sc.failed()
	if sc.full == nil {
		// The full compile reports malformed patterns itself.
		for _, b := range sc.badPatterns {
			k.add(invalid, it.subj, base+pointerOf(b.loc),
				fmt.Sprintf("%s: %s has a malformed regular expression %q at %s: %v", it.label(), field, b.pattern, pathOf(append([]string{field}, b.loc...)), b.err))
		}
	}
	if err == nil {
		return
	}
	authority := dialectName(sc.dialect)
	var sve *jsonschema.SchemaValidationError
	var lue *jsonschema.LoadURLError
	var rxe *jsonschema.InvalidRegexError
	var pnf *jsonschema.JSONPointerNotFoundError
	var anf *jsonschema.AnchorNotFoundError
	switch {
	case errors.As(err, &sve):
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			for _, l := range flatten(ve) {
				for _, loc := range l.places() {
					where := pathOf(append([]string{field}, loc...))
					k.add(invalid, it.subj, base+pointerOf(loc),
						fmt.Sprintf("%s: %s is not a valid schema: %s", it.label(), field, describe(l, where, "the "+authority+" meta-schema")))
				}
			}
			return
		}
	case errors.As(err, &lue):
		k.add(rules.ToolSchemaUnresolvable, it.subj, base,
			fmt.Sprintf("%s: %s refers to %q, outside the schema; clients do not fetch it and mcp-surface did not check it", it.label(), field, strip(lue.URL)))
		return
	case errors.As(err, &rxe):
		k.add(invalid, it.subj, base+fragmentPointer(rxe.URL),
			fmt.Sprintf("%s: %s has a malformed regular expression %q: %v", it.label(), field, rxe.Regex, rxe.Err))
		return
	case errors.As(err, &pnf):
		k.add(invalid, it.subj, base,
			fmt.Sprintf("%s: %s has a $ref to %q, which points to nothing in the schema", it.label(), field, strip(pnf.URL)))
		return
	case errors.As(err, &anf):
		k.add(invalid, it.subj, base,
			fmt.Sprintf("%s: %s has a $ref to %q, an anchor the schema does not define", it.label(), field, strip(anf.Reference)))
		return
	}
	k.add(invalid, it.subj, base, fmt.Sprintf("%s: %s is not a valid %s schema: %s", it.label(), field, authority, strip(err.Error())))
}

// strip removes the internal base URI from library messages.
func strip(s string) string {
	s = strings.ReplaceAll(s, toolSchemaBase, "")
	return strings.ReplaceAll(s, strings.TrimSuffix(toolSchemaBase, "schema.json"), "")
}

// fragmentPointer extracts the JSON Pointer of a library URL's fragment.
func fragmentPointer(u string) string {
	i := strings.IndexByte(u, '#')
	if i < 0 {
		return ""
	}
	f, err := url.PathUnescape(u[i+1:])
	if err != nil {
		return ""
	}
	return f
}

// structuredContent checks a tools/call result against the outputSchema
// of the tool it called.
func (k *checker) structuredContent(subj finding.Subject, result any) {
	it, ok := k.byTool[subj.Name]
	if !ok || subj.Kind != finding.KindTool {
		return
	}
	out, ok := it.obj()["outputSchema"]
	if !ok {
		return
	}
	if _, isObj := out.(map[string]any); !isObj {
		return
	}
	res, _ := result.(map[string]any)
	if res == nil || res["isError"] == true {
		return
	}
	label := fmt.Sprintf("tools/call result for %s", it.label())
	sc, ok := res["structuredContent"]
	if !ok {
		k.add(rules.ToolResultStructuredContentInvalid, subj, "/structuredContent",
			label+": has no structuredContent, but the tool declares an outputSchema, so every successful result must carry one")
		return
	}
	ts := k.compileToolSchema(out)
	if ts.sch == nil {
		return // the schema itself is reported
	}
	err := ts.sch.Validate(sc)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		return
	}
	for _, l := range flatten(ve) {
		for _, loc := range l.places() {
			where := pathOf(append([]string{"structuredContent"}, loc...))
			k.add(rules.ToolResultStructuredContentInvalid, subj, "/structuredContent"+pointerOf(loc),
				label+": "+describe(l, where, "the tool's outputSchema"))
		}
	}
}
