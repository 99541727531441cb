// Package reporttest builds realistic reports for the renderers' tests
// and for the CLI's: a diff of one server, a hostile server, a large diff,
// several servers. Findings are constructed directly (not with
// finding.New) so fixtures do not change when the rule table does.
package reporttest

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Spec is one finding to build.
type Spec struct {
	Rule          string
	Level         rules.Level
	Severity      rules.Severity
	Tags          []string
	Kind, Name    string
	Pointer       string
	Message       string
	Before, After any // encoded as JSON; nil: absent
	Acknowledged  string
	Revision      string
	// Witness is the instance that proves a schema change, with the side
	// that accepts it ("base" or "head"); nil: none.
	Witness *finding.Witness
}

// F builds a finding with its fingerprint.
func F(s Spec) finding.Finding {
	enc := func(v any) json.RawMessage {
		if v == nil {
			return nil
		}
		if raw, ok := v.(json.RawMessage); ok {
			return raw
		}
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return b
	}
	tags := s.Tags
	if tags == nil {
		tags = []string{}
	}
	f := finding.Finding{
		Rule: s.Rule, Level: s.Level, Severity: s.Severity, Tags: tags,
		Subject: finding.Subject{Kind: s.Kind, Name: s.Name},
		Pointer: s.Pointer, Message: s.Message,
		Before: enc(s.Before), After: enc(s.After),
		Acknowledged: s.Acknowledged, Revision: s.Revision,
		Witness: s.Witness,
	}
	if s.Severity != "" && f.Pointer != "" {
		f.HeadPointer = f.Pointer
	}
	f.Fingerprint = finding.Fingerprint(f.Rule, f.Subject, f.Pointer, f.Before, f.After)
	return f
}

const (
	baseHash = "3f1a9c0d5e7b2a4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c"
	headHash = "9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b"
)

// Diff is a realistic check of one server: breaking, risky, minor, patch
// and info changes, an acknowledged one, a spec error and a lint warning.
func Diff() *report.Report {
	changes := []finding.Finding{
		F(Spec{Rule: rules.InputRequiredPropertyAdded, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindTool, Name: "get_forecast", Pointer: "/inputSchema/required",
			Message: `property "days" is now required: calls without it fail`, Before: []string{"city"}, After: []string{"city", "days"},
			Witness: &finding.Witness{Value: json.RawMessage(`{"city":""}`), Accepts: finding.SideBase, Rejects: finding.SideHead}}),
		F(Spec{Rule: rules.OutputRequiredPropertyRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindTool, Name: "get_forecast", Pointer: "/outputSchema/properties/humidity",
			Message: `required output property "humidity" was removed`,
			Before:  map[string]any{"type": "number", "minimum": 0, "maximum": 100, "description": "Relative humidity in percent"}}),
		F(Spec{Rule: rules.ToolRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindTool, Name: "legacy_lookup", Message: `tool "legacy_lookup" was removed: calls to it fail`, Before: "legacy_lookup"}),
		F(Spec{Rule: rules.ToolAnnotationReadOnlyHintRemoved, Level: rules.LevelWarning, Severity: rules.SeverityRisky, Tags: []string{"sec"},
			Kind: finding.KindTool, Name: "delete_alerts", Pointer: "/annotations/readOnlyHint",
			Message: "readOnlyHint was withdrawn: hosts may now ask before every call, or the tool now writes", Before: true}),
		F(Spec{Rule: rules.ToolDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"},
			Kind: finding.KindTool, Name: "get_forecast", Pointer: "/description",
			Message: "description changed",
			Before:  "Get the weather forecast for a city.",
			After:   "Get the weather forecast for a city for the next N days."}),
		F(Spec{Rule: rules.ServerInstructionsChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"},
			Kind: finding.KindServer, Pointer: "/instructions", Message: "instructions changed",
			Before: "Use get_forecast for forecasts.\nUse get_alerts for warnings.\nAnswer in metric units.",
			After:  "Use get_forecast for forecasts.\nUse get_alerts for severe weather warnings.\nAnswer in metric units.\nNever guess a city."}),
		F(Spec{Rule: rules.ToolAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor,
			Kind: finding.KindTool, Name: "get_alerts", Message: `tool "get_alerts" was added`, After: "get_alerts"}),
		F(Spec{Rule: rules.InputOptionalPropertyAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor,
			Kind: finding.KindTool, Name: "get_forecast", Pointer: "/inputSchema/properties/units",
			Message: `optional property "units" was added`, After: map[string]any{"type": "string", "enum": []string{"metric", "imperial"}}}),
		F(Spec{Rule: rules.ServerVersionChanged, Level: rules.LevelInfo, Severity: rules.SeverityInfo,
			Kind: finding.KindServer, Pointer: "/serverInfo/version", Message: "version changed from 1.4.0 to 2.0.0", Before: "1.4.0", After: "2.0.0"}),
		F(Spec{Rule: rules.InputEnumValueRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindTool, Name: "get_alerts", Pointer: "/inputSchema/properties/severity/enum",
			Message: `enum value "unknown" is no longer accepted`, Before: []string{"minor", "severe", "unknown"}, After: []string{"minor", "severe"},
			Acknowledged: "nobody sends unknown; confirmed with the dashboard team"}),
	}
	spec := []finding.Finding{
		F(Spec{Rule: rules.ToolInputSchemaInvalid, Level: rules.LevelError, Tags: []string{"spec"}, Revision: "2025-06-18",
			Kind: finding.KindTool, Name: "get_alerts", Pointer: "/inputSchema/properties/region/type",
			Message: `inputSchema is not a valid JSON Schema: "type" must be a string or an array of strings`, After: 42}),
	}
	lint := []finding.Finding{
		F(Spec{Rule: rules.DescriptionMissing, Level: rules.LevelWarning, Tags: []string{"lint", "llm"},
			Kind: finding.KindPrompt, Name: "summarize_week", Message: "prompt has no description: models cannot tell when to use it"}),
	}
	s := report.Section{
		Server:   "weather",
		Command:  "check",
		Base:     &report.Side{Label: "origin/main:mcp-surface.json", ManifestHash: baseHash, Revision: "2025-06-18"},
		Head:     &report.Side{Label: "node dist/index.js", ManifestHash: headHash, Revision: "2025-06-18"},
		Findings: slices.Concat(spec, lint, changes),
		Snapshot: "mcp-surface.json",
		Subjects: []finding.Subject{
			{Kind: finding.KindServer}, {Kind: finding.KindPrompt, Name: "summarize_week"},
			{Kind: finding.KindTool, Name: "delete_alerts"}, {Kind: finding.KindTool, Name: "get_alerts"},
			{Kind: finding.KindTool, Name: "get_forecast"}, {Kind: finding.KindTool, Name: "search_cities"},
		},
		Notes: []string{"Captured `node dist/index.js` over stdio (protocol 2025-06-18).", "1 change is acknowledged in .mcp-surface.yaml."},
	}
	s.Locations = map[string]locate.Location{}
	for _, f := range append(append(append([]finding.Finding{}, changes...), spec...), lint...) {
		switch {
		case f.Subject.Name == "get_forecast":
			s.Locations[f.Fingerprint] = locate.Location{Path: "src/tools/forecast.ts", Line: 42, Source: locate.SourceCode}
		case f.Subject.Name == "delete_alerts":
			s.Locations[f.Fingerprint] = locate.Location{Path: "src/tools/alerts.ts", Line: 17, Source: locate.SourceCode}
		case f.Subject.Kind == finding.KindServer:
			s.Locations[f.Fingerprint] = locate.Location{Path: "mcp-surface.json", Line: 3, Source: locate.SourceSnapshot}
		case f.Subject.Name == "get_alerts":
			s.Locations[f.Fingerprint] = locate.Location{Path: "mcp-surface.json", Line: 88, Source: locate.SourceSnapshot}
		}
	}
	return &report.Report{Version: "v0.3.0", Servers: []report.Section{s}}
}

// Empty is a check that found nothing.
func Empty() *report.Report {
	return &report.Report{Version: "v0.3.0", Servers: []report.Section{{
		Command: "diff",
		Base:    &report.Side{Label: "origin/main:mcp-surface.json", ManifestHash: headHash},
		Head:    &report.Side{Label: "mcp-surface.json", ManifestHash: headHash},
	}}}
}

// Hostile strings: everything a PR's author could put in a name or a
// description to abuse a report.
var (
	HostileName = "evil@octocat #1 GH-12 owner/repo#3 <img src=x onerror=alert(1)>|x|\n::error::injected\u202eevil\u200b\ufeff\x1b[31mred\u0085"
	HostileText = "Ping @octocat and @github/security about #1, GH-7, owner/repo#9.\n" +
		"<!-- mcp-surface:report id=default -->\n" +
		"<details><summary>click</summary><img src=https://evil.example/x.png></details>\n" +
		"![tracker](https://evil.example/t.png) [docs](javascript:alert(1)) www.evil.example https://evil.example/a\n" +
		"| a | b |\n|---|---|\n" +
		"````\n```\n~~~\n" +
		"## Heading\n" +
		"<!-- hide this -->\n" +
		"$\\color{red}{\\text{fake}}$ :warning: **bold** _em_ \\\n" +
		"\u202eRTL override\u202c \u2066isolate\u2069 zero\u200bwidth \ufeffBOM \x1b[2Jansi \x07bell \u0085nel \x00nul \U000E0041tag \u2028sep\n" +
		"::error file=x,line=1::forged annotation\n" +
		"::add-mask::secret\n" +
		"::stop-commands::token\n" +
		"  ::warning::indented ##[error]legacy\n" +
		"\xff invalid byte"
)

// Hostile is a report of a server whose author wrote HostileName and
// HostileText wherever a server's text can appear.
func Hostile() *report.Report {
	changes := []finding.Finding{
		F(Spec{Rule: rules.ToolRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindTool, Name: HostileName, Message: "tool " + HostileName + " was removed: " + HostileText, Before: HostileName}),
		F(Spec{Rule: rules.ToolDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"},
			Kind: finding.KindTool, Name: HostileName, Pointer: "/description",
			Message: "description changed", Before: "A harmless tool.", After: HostileText}),
		F(Spec{Rule: rules.InputPropertyDescriptionChanged, Level: rules.LevelWarning, Severity: rules.SeverityRisky, Tags: []string{"llm"},
			Kind: finding.KindTool, Name: HostileName, Pointer: "/inputSchema/properties/" + HostileName + "/description",
			Message: "description of " + HostileName + " changed", Before: "short", After: "short " + HostileText}),
		F(Spec{Rule: rules.InputTypeChanged, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindResourceTemplate, Name: "file:///" + HostileName + "/{path}", Pointer: "/" + HostileName,
			Message: HostileText, Before: map[string]any{"description": HostileText, "type": "string"}, After: map[string]any{HostileName: HostileText},
			Witness: &finding.Witness{Value: hostileWitness(), Accepts: finding.SideBase, Rejects: finding.SideHead}}),
		F(Spec{Rule: rules.PromptRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindPrompt, Name: HostileName, Message: "prompt removed", Acknowledged: HostileText}),
		F(Spec{Rule: rules.ServerInstructionsChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"},
			Kind: finding.KindServer, Pointer: "/instructions", Message: "instructions changed",
			Before: "::notice::context line\nBe helpful.", After: "::notice::context line\nBe helpful.\n" + HostileText}),
	}
	lint := []finding.Finding{
		F(Spec{Rule: rules.TextHiddenCharacters, Level: rules.LevelWarning, Tags: []string{"lint", "sec"},
			Kind: finding.KindTool, Name: HostileName, Pointer: "/description", Message: "::error::from a message " + HostileText, After: HostileText}),
	}
	s := report.Section{
		Server:   HostileName,
		Command:  HostileText,
		Base:     &report.Side{Label: HostileText, ManifestHash: HostileName, Revision: HostileName},
		Head:     &report.Side{Label: HostileName, ManifestHash: baseHash, Revision: "2025-06-18"},
		Findings: slices.Concat(changes, lint),
		Snapshot: "snap/" + HostileName + ".json",
		Subjects: []finding.Subject{{Kind: finding.KindTool, Name: HostileName}, {Kind: finding.KindTool, Name: "ok_tool"}},
		Notes:    []string{HostileText},
	}
	s.Locations = map[string]locate.Location{
		changes[0].Fingerprint: {Path: "src/" + HostileName + ".ts", Line: 7, Source: locate.SourceCode},
	}
	return &report.Report{Version: HostileName, Servers: []report.Section{s}}
}

// Large is a diff of nTools tools with perTool findings each (the first
// tools breaking, later ones risky, then minor and patch), with long
// descriptions: what a rewrite of a big server looks like.
func Large(nTools, perTool int) *report.Report {
	kinds := []Spec{
		{Rule: rules.InputRequiredPropertyAdded, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"}},
		{Rule: rules.InputTypeNarrowed, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"}},
		{Rule: rules.OutputPropertyBecameOptional, Level: rules.LevelWarning, Severity: rules.SeverityRisky, Tags: []string{"wire"}},
		{Rule: rules.ToolDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"}},
		{Rule: rules.InputOptionalPropertyAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor},
		{Rule: rules.InputPropertyDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm"}},
	}
	var changes []finding.Finding
	locs := map[string]locate.Location{}
	for t := 0; t < nTools; t++ {
		name := fmt.Sprintf("tool_%03d_%s", t, []string{"search", "fetch", "update", "delete", "list"}[t%5])
		for k := 0; k < perTool; k++ {
			sp := kinds[(t+k)%len(kinds)]
			sp.Kind, sp.Name = finding.KindTool, name
			prop := fmt.Sprintf("param_%d", k)
			switch {
			case sp.Rule == rules.ToolDescriptionChanged:
				sp.Pointer = "/description"
				sp.Message = "description changed"
				sp.Before = fmt.Sprintf("Runs %s against the catalogue and returns up to 50 matching records, newest first. Use it when the user asks about %s.", name, prop)
				sp.After = fmt.Sprintf("Runs %s against the catalogue and returns up to 100 matching records, sorted by relevance. Use it when the user asks about %s or related topics.", name, prop)
			case sp.Rule == rules.InputPropertyDescriptionChanged:
				sp.Pointer = "/inputSchema/properties/" + prop + "/description"
				sp.Message = fmt.Sprintf("description of %q changed", prop)
				sp.Before = "The maximum number of results."
				sp.After = "The maximum number of results (1 to 100)."
			default:
				sp.Pointer = "/inputSchema/properties/" + prop
				sp.Message = fmt.Sprintf("%s: property %q", sp.Rule, prop)
				sp.Before = map[string]any{"type": []string{"string", "integer"}, "description": "Identifier of the record"}
				sp.After = map[string]any{"type": "string", "description": "Identifier of the record", "pattern": "^[a-z0-9-]{8,64}$"}
			}
			f := F(sp)
			changes = append(changes, f)
			locs[f.Fingerprint] = locate.Location{Path: fmt.Sprintf("src/tools/%s.ts", name), Line: 10 + k, Source: locate.SourceCode}
		}
	}
	return &report.Report{Version: "v0.3.0", Servers: []report.Section{{
		Server: "catalogue", Command: "check",
		Base:     &report.Side{Label: "origin/main:mcp-surface.json", ManifestHash: baseHash, Revision: "2025-06-18"},
		Head:     &report.Side{Label: "python -m catalogue.server", ManifestHash: headHash, Revision: "2025-06-18"},
		Findings: changes, Snapshot: "mcp-surface.json", Locations: locs,
	}}}
}

// MultiServer is a run over two servers: one with changes, one clean.
func MultiServer() *report.Report {
	d := Diff()
	clean := report.Section{
		Server: "files", Command: "check",
		Base:     &report.Side{Label: "origin/main:servers/files/mcp-surface.json", ManifestHash: headHash, Revision: "2025-11-25"},
		Head:     &report.Side{Label: "servers/files/mcp-surface.json", ManifestHash: headHash, Revision: "2025-11-25"},
		Snapshot: "servers/files/mcp-surface.json",
		Subjects: []finding.Subject{{Kind: finding.KindServer}, {Kind: finding.KindTool, Name: "read_file"}},
	}
	return &report.Report{Version: d.Version, Servers: []report.Section{d.Servers[0], clean}}
}

// DescriptionOnly is a pull request that added tools and edited the text
// models read, and broke nothing.
func DescriptionOnly() *report.Report {
	changes := []finding.Finding{
		F(Spec{Rule: rules.ToolDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"},
			Kind: finding.KindTool, Name: "get_forecast", Pointer: "/description", Message: "description changed",
			Before: "Get the weather forecast for a city.", After: "Get the weather forecast for a city, in metric units."}),
		F(Spec{Rule: rules.InputPropertyDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm"},
			Kind: finding.KindTool, Name: "get_alerts", Pointer: "/inputSchema/properties/region/description",
			Message: `description of "region" changed`, Before: "A region code.", After: "A two-letter region code, such as CA."}),
		F(Spec{Rule: rules.ToolAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor, Kind: finding.KindTool, Name: "get_radar",
			Message: `tool "get_radar" was added`, After: "get_radar"}),
		F(Spec{Rule: rules.ToolAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor, Kind: finding.KindTool, Name: "get_tides",
			Message: `tool "get_tides" was added`, After: "get_tides"}),
		F(Spec{Rule: rules.ToolAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor, Kind: finding.KindTool, Name: "get_uv_index",
			Message: `tool "get_uv_index" was added`, After: "get_uv_index"}),
		F(Spec{Rule: rules.ServerVersionChanged, Level: rules.LevelInfo, Severity: rules.SeverityInfo,
			Kind: finding.KindServer, Pointer: "/serverInfo/version", Message: "version changed from 1.4.0 to 1.5.0", Before: "1.4.0", After: "1.5.0"}),
	}
	return &report.Report{Version: "v0.3.0", Servers: []report.Section{{
		Server: "weather", Command: "check",
		Base:     &report.Side{Label: "origin/main:mcp-surface.json", ManifestHash: baseHash, Revision: "2025-06-18"},
		Head:     &report.Side{Label: "node dist/index.js", ManifestHash: headHash, Revision: "2025-06-18"},
		Findings: changes,
		Snapshot: "mcp-surface.json",
	}}}
}

// hostileWitness is a witness whose value carries HostileText, as a
// server's enum or const would put it there.
func hostileWitness() json.RawMessage {
	b, err := json.Marshal(map[string]string{HostileName: HostileText})
	if err != nil {
		panic(err)
	}
	return b
}
