package rules

// Section B of the rule catalog: server capabilities.

func init() {
	register([]Rule{
		surfaceChange("capability-tools-removed", SeverityBreaking, "surface", "wire",
			"capabilities.tools was removed",
			`The server no longer offers ‵tools/list‵ and ‵tools/call‵: every tool disappears for
clients that check capabilities. Per-tool removals are reported as well.`),
		surfaceChange("capability-tools-added", SeverityMinor, "surface", "",
			"capabilities.tools was added",
			`A new feature area. Additive.`),
		surfaceChange("capability-prompts-removed", SeverityBreaking, "surface", "wire",
			"capabilities.prompts was removed",
			`‵prompts/list‵ and ‵prompts/get‵ are no longer offered; slash commands built on them
disappear.`),
		surfaceChange("capability-prompts-added", SeverityMinor, "surface", "",
			"capabilities.prompts was added",
			`A new feature area. Additive.`),
		surfaceChange("capability-resources-removed", SeverityBreaking, "surface", "wire",
			"capabilities.resources was removed",
			`‵resources/*‵ requests are no longer offered; clients reading resources fail.`),
		surfaceChange("capability-resources-added", SeverityMinor, "surface", "",
			"capabilities.resources was added",
			`A new feature area. Additive.`),
		surfaceChange("capability-resources-subscribe-removed", SeverityBreaking, "surface", "wire",
			"capabilities.resources.subscribe is no longer true",
			`‵resources/subscribe‵ now fails and clients stop receiving
‵notifications/resources/updated‵. Not reported separately when the whole ‵resources‵
capability was removed.`),
		surfaceChange("capability-resources-subscribe-added", SeverityMinor, "surface", "",
			"capabilities.resources.subscribe became true",
			`Additive.`),
		surfaceChange("capability-list-changed-removed", SeverityRisky, "surface", "",
			"A listChanged capability is no longer true",
			`No request fails, but clients that relied on ‵notifications/*/list_changed‵ keep stale
lists of tools, prompts or resources. The pointer names which capability.`),
		surfaceChange("capability-list-changed-added", SeverityMinor, "surface", "sec",
			"A listChanged capability became true",
			`Additive. Note that list-change notifications are also the channel through which tool
definitions can change in the middle of a session (a runtime rug pull), which a CI diff of the
shipped surface cannot see: pair it with runtime pinning of tool definitions.`),
		surfaceChange("capability-completions-removed", SeverityBreaking, "surface", "wire",
			"capabilities.completions was removed",
			`‵completion/complete‵ now fails for clients that used argument completion.`),
		surfaceChange("capability-completions-added", SeverityMinor, "surface", "",
			"capabilities.completions was added",
			`Additive.`),
		surfaceChange("capability-logging-removed", SeverityRisky, "surface", "",
			"capabilities.logging was removed",
			`‵logging/setLevel‵ becomes unavailable and log notifications stop. Logging is deprecated
in 2026-07-28, so this is risky rather than breaking by default.`),
		surfaceChange("capability-logging-added", SeverityMinor, "surface", "",
			"capabilities.logging was added",
			`Additive.`),
		surfaceChange("capability-tasks-tool-call-removed", SeverityBreaking, "surface", "wire",
			"capabilities.tasks.requests.tools.call was removed",
			`Task-augmented ‵tools/call‵ requests are now rejected (2025-11-25 tasks).`),
		surfaceChange("capability-tasks-management-removed", SeverityRisky, "surface", "",
			"capabilities.tasks.list or tasks.cancel was removed",
			`Clients lose task listing or cancellation; the calls themselves still work. Other
‵tasks‵ sub-capabilities this version does not know are reported under this rule too (fail closed).`),
		surfaceChange("capability-tasks-added", SeverityMinor, "surface", "",
			"A tasks capability was added",
			`Additive. One finding per new sub-capability (‵tasks.list‵, ‵tasks.cancel‵,
‵tasks.requests.tools.call‵, …).`),
		surfaceChange("capability-extension-removed", SeverityRisky, "surface", "",
			"An extension was removed from capabilities.extensions",
			`Extension-dependent client features stop working. Clients negotiate extensions, so this is
not a hard break by default.`),
		surfaceChange("capability-extension-added", SeverityMinor, "surface", "",
			"An extension was added to capabilities.extensions",
			`Additive.`),
		surfaceChange("capability-extension-settings-changed", SeverityRisky, "surface", "",
			"The settings object of an extension changed",
			`The extension owns the meaning of its settings, so the change cannot be judged
generically. Check the extension's documentation.`),
		surfaceChange("capability-experimental-removed", SeverityRisky, "surface", "",
			"A key was removed from capabilities.experimental",
			`A non-standard feature was withdrawn; clients that used it lose it.`),
		surfaceChange("capability-experimental-added", SeverityMinor, "surface", "",
			"A key was added to capabilities.experimental",
			`Additive.`),
		surfaceChange("capability-experimental-changed", SeverityMinor, "surface", "",
			"The value of an experimental capability changed",
			`Experimental by definition; informational-plus.`),
		surfaceChange("capability-unknown-changed", SeverityRisky, "surface", "",
			"A capability the specification does not define was added, removed or changed",
			`Not in the catalog. Capabilities are an open set: a server may advertise capabilities
this version of mcp-surface does not know (including sub-keys of known ones). Their meaning
cannot be judged, so the change is reported (fail closed) rather than dropped.`),
	})
}
