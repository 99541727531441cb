package rules

import "strings"

// Section A of the rule catalog: protocol version, server identity,
// instructions. protocol-feature-version-mismatch is registered by the spec
// gate (spec.go); the diff engine may emit it.

// surfaceChange builds one change rule of the diff engine's sections
// (A–D, G–J). tags is a comma-separated list.
func surfaceChange(id string, sev Severity, dir, tags, summary, help string) Rule {
	var ts []string
	if tags != "" {
		ts = strings.Split(tags, ",")
	}
	return Rule{
		ID: id, Kind: KindChange, Severity: sev, Level: sev.Level(),
		Direction: dir, Tags: ts, Summary: summary, Help: helpText(help),
	}
}

// helpText turns ‵ into a backtick: help is markdown full of code spans,
// which raw string literals cannot contain.
func helpText(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "‵", "`"))
}

const (
	ProtocolVersionNoLongerSupported = "protocol-version-no-longer-supported"
	ProtocolVersionNoLongerListed    = "protocol-version-no-longer-listed"
	ProtocolVersionSupportAdded      = "protocol-version-support-added"
	ProtocolVersionDowngraded        = "protocol-version-downgraded"
	ProtocolVersionUpgraded          = "protocol-version-upgraded"
	ServerNameChanged                = "server-name-changed"
	ServerTitleChanged               = "server-title-changed"
	ServerDescriptionChanged         = "server-description-changed"
	ServerWebsiteUrlChanged          = "server-website-url-changed"
	ServerIconsChanged               = "server-icons-changed"
	ServerVersionChanged             = "server-version-changed"
	ServerVersionNotBumped           = "server-version-not-bumped"
	ServerVersionDecreased           = "server-version-decreased"
	ServerMajorVersionNotBumped      = "server-major-version-not-bumped"
	ServerInstructionsAdded          = "server-instructions-added"
	ServerInstructionsRemoved        = "server-instructions-removed"
	ServerInstructionsChanged        = "server-instructions-changed"
	ServerUnknownFieldChanged        = "server-unknown-field-changed"
)

func protocolChangeRules() []Rule {
	return []Rule{
		surfaceChange(ProtocolVersionNoLongerSupported, SeverityBreaking, "surface", "wire",
			"A protocol version the base server accepted is no longer accepted",
			`Clients that speak this revision must disconnect after the handshake: every call they make fails.

**How it is observed.** By trial, never by claim: servers often list only their newest revision
in ‵server/discover‵ and still accept an older ‵initialize‵. A revision base accepted (listed in
its ‵supportedVersions‵, or negotiated) counts as withdrawn only when a session of head at that
revision failed or settled on another revision (the snapshot's ‵protocolTrials‵). ‵check‵ makes
that trial whenever the baseline's revision differs from head's; a capture asked for several
revisions records each as a trial of the others. Without a trial the change is
‵protocol-version-no-longer-listed‵ (a warning) instead.

**What to do.** Keep accepting the revision, or ship the change as a major version and tell
your users which client versions they need.`),
		surfaceChange(ProtocolVersionNoLongerListed, SeverityRisky, "surface", "wire",
			"A protocol version base accepted is no longer listed, and no trial was made",
			`Head's ‵supportedVersions‵ (or its negotiated revision) no longer shows a revision base
accepted, but nothing tried that revision against head, so whether clients of that revision
still connect is unknown: many servers list only their newest revision and still accept older
ones. Run ‵check‵ (which opens a session at the baseline's revision), or capture head with
every revision you care about (‵--protocol-version A,B‵); with a trial this becomes either
nothing (accepted) or ‵protocol-version-no-longer-supported‵ (refused).`),
		surfaceChange(ProtocolVersionSupportAdded, SeverityMinor, "surface", "",
			"The server accepts an additional protocol version",
			`Additive: clients keep the revision they speak. Observed from ‵supportedVersions‵
(a version listed in head and not in base). Nothing to do.`),
		surfaceChange(ProtocolVersionDowngraded, SeverityRisky, "surface", "wire",
			"The negotiated protocol version is older than in base",
			`For the same client request, head answered with an older revision. Features of the newer
revision (structured output and ‵outputSchema‵, titles, icons, tasks) silently disappear for
that client, and clients that only speak the base revision cannot connect at all.

**What to do.** Check the server's SDK version and its list of supported revisions; pin the
harness's requested revision so that snapshots stay comparable.`),
		surfaceChange(ProtocolVersionUpgraded, SeverityMinor, "surface", "",
			"The negotiated protocol version is newer than in base",
			`Head negotiated a newer revision than base for the same request, so the requested
revision was not supported by base and the client was already on a fallback; a newer revision
adds fields only. Review the revision's changelog for features your clients now see.`),
		surfaceChange(ServerNameChanged, SeverityMinor, "meta", "sec",
			"serverInfo.name changed",
			`Not a wire break, but the server's identity is shown to users and some hosts key trust,
approval or logs on it: a renamed server may lose (or gain) approvals it should not.
Confirm the rename is intended.`),
		surfaceChange(ServerTitleChanged, SeverityPatch, "meta", "",
			"serverInfo.title was added, changed or removed",
			`Display only. Nothing to do beyond a review.`),
		surfaceChange(ServerDescriptionChanged, SeverityPatch, "meta", "llm",
			"serverInfo.description was added, changed or removed",
			`Display text that hosts may show to users or models. The finding carries the text diff;
the ‵text-*‵ rules report suspicious additions on top.`),
		surfaceChange(ServerWebsiteUrlChanged, SeverityPatch, "meta", "sec",
			"serverInfo.websiteUrl changed",
			`Display only, but a new origin for the server's website deserves a look: users follow
that link to decide whether to trust the server.`),
		surfaceChange(ServerIconsChanged, SeverityPatch, "meta", "",
			"serverInfo.icons changed",
			`Display only. An icon served from a new origin, or a new SVG icon, is reported as
‵tool-icon-origin-changed‵ (with subject ‵server‵) instead.`),
		surfaceChange(ServerVersionChanged, SeverityInfo, "meta", "",
			"serverInfo.version changed",
			`Informational; the versioning rules compare it with the worst change.`),
		surfaceChange(ServerVersionNotBumped, SeverityRisky, "meta", "versioning",
			"Breaking or risky changes but serverInfo.version is unchanged",
			`The surface changed incompatibly while the server still reports the same version, so
clients cannot tell the two builds apart. A warning by default, shown next to the changes that
caused it; raise it in ‵.mcp-surface.yaml‵ (‵severity: {server-version-not-bumped: breaking}‵)
to enforce semver, or lower it to ‵info‵ to hide it. It is judged after severity overrides, so
a change you turned off does not count, and it never counts as an incompatible change itself.`),
		surfaceChange(ServerVersionDecreased, SeverityInfo, "meta", "versioning",
			"serverInfo.version moved backwards",
			`Both versions parse as semver (a leading ‵v‵ is accepted) and head's is lower. Usually a
build from an old branch. Raise the severity to enforce monotonic versions.`),
		surfaceChange(ServerMajorVersionNotBumped, SeverityInfo, "meta", "versioning",
			"Breaking or risky changes but the semver major version was not increased",
			`The version changed, but not by a major bump (by a minor bump below 1.0.0, where semver
allows breaking minors). Reported only when both versions parse as semver; an unchanged
version is ‵server-version-not-bumped‵ instead. Raise the severity to enforce semver.`),
		surfaceChange(ServerInstructionsAdded, SeverityMinor, "meta", "llm,sec",
			"Server instructions were added",
			`Hosts typically place ‵instructions‵ in the model's system prompt: new text there steers
every conversation that uses the server. Review it like new code; the ‵text-*‵ rules flag
suspicious content.`),
		surfaceChange(ServerInstructionsRemoved, SeverityMinor, "meta", "llm",
			"Server instructions were removed",
			`The model loses usage guidance; nothing fails, but behaviour may drift. Check that the
guidance moved somewhere the model still sees (tool descriptions).`),
		surfaceChange(ServerInstructionsChanged, SeverityPatch, "meta", "llm,sec",
			"Server instructions text changed",
			`The text lands in the system prompt, which makes it a rug-pull vector: a benign server
can later tell the model to do something else. The finding always carries the text diff;
suspicious additions are reported on top by the ‵text-*‵ rules. Teams that pin prose can raise
this rule to ‵breaking‵.`),
		surfaceChange(ServerUnknownFieldChanged, SeverityInfo, "meta", "",
			"A field of serverInfo that the specification does not define changed",
			`Not in the catalog: the snapshot keeps every field as served, and a change the rules
cannot judge is reported rather than dropped. Fields outside the specification are ignored by
conforming clients, hence info.`),
	}
}
