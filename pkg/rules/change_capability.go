package rules

// Section B of the rule catalog: server capabilities.

const (
	CapabilityToolsRemoved              = "capability-tools-removed"
	CapabilityToolsAdded                = "capability-tools-added"
	CapabilityPromptsRemoved            = "capability-prompts-removed"
	CapabilityPromptsAdded              = "capability-prompts-added"
	CapabilityResourcesRemoved          = "capability-resources-removed"
	CapabilityResourcesAdded            = "capability-resources-added"
	CapabilityResourcesSubscribeRemoved = "capability-resources-subscribe-removed"
	CapabilityResourcesSubscribeAdded   = "capability-resources-subscribe-added"
	CapabilityListChangedRemoved        = "capability-list-changed-removed"
	CapabilityListChangedAdded          = "capability-list-changed-added"
	CapabilityCompletionsRemoved        = "capability-completions-removed"
	CapabilityCompletionsAdded          = "capability-completions-added"
	CapabilityLoggingRemoved            = "capability-logging-removed"
	CapabilityLoggingAdded              = "capability-logging-added"
	CapabilityTasksToolCallRemoved      = "capability-tasks-tool-call-removed"
	CapabilityTasksManagementRemoved    = "capability-tasks-management-removed"
	CapabilityTasksAdded                = "capability-tasks-added"
	CapabilityExtensionRemoved          = "capability-extension-removed"
	CapabilityExtensionAdded            = "capability-extension-added"
	CapabilityExtensionSettingsChanged  = "capability-extension-settings-changed"
	CapabilityExperimentalRemoved       = "capability-experimental-removed"
	CapabilityExperimentalAdded         = "capability-experimental-added"
	CapabilityExperimentalChanged       = "capability-experimental-changed"
	CapabilityUnknownChanged            = "capability-unknown-changed"
	CapabilityUnimplementedRemoved      = "capability-unimplemented-removed"
)

func capabilityChangeRules() []Rule {
	return []Rule{
		surfaceChange(CapabilityToolsRemoved, SeverityBreaking, "surface", "wire",
			"capabilities.tools was removed",
			`The server no longer offers ‵tools/list‵ and ‵tools/call‵: every tool disappears for
clients that check capabilities. Per-tool removals are reported as well.`),
		surfaceChange(CapabilityToolsAdded, SeverityMinor, "surface", "",
			"capabilities.tools was added",
			`A new feature area. Additive.`),
		surfaceChange(CapabilityPromptsRemoved, SeverityBreaking, "surface", "wire",
			"capabilities.prompts was removed",
			`‵prompts/list‵ and ‵prompts/get‵ are no longer offered; slash commands built on them
disappear.`),
		surfaceChange(CapabilityPromptsAdded, SeverityMinor, "surface", "",
			"capabilities.prompts was added",
			`A new feature area. Additive.`),
		surfaceChange(CapabilityResourcesRemoved, SeverityBreaking, "surface", "wire",
			"capabilities.resources was removed",
			`‵resources/*‵ requests are no longer offered; clients reading resources fail.`),
		surfaceChange(CapabilityResourcesAdded, SeverityMinor, "surface", "",
			"capabilities.resources was added",
			`A new feature area. Additive.`),
		surfaceChange(CapabilityResourcesSubscribeRemoved, SeverityBreaking, "surface", "wire",
			"capabilities.resources.subscribe is no longer true",
			`‵resources/subscribe‵ now fails and clients stop receiving
‵notifications/resources/updated‵. Not reported separately when the whole ‵resources‵
capability was removed.`),
		surfaceChange(CapabilityResourcesSubscribeAdded, SeverityMinor, "surface", "",
			"capabilities.resources.subscribe became true",
			`Additive.`),
		surfaceChange(CapabilityUnimplementedRemoved, SeverityMinor, "surface", "",
			"A capability that never worked is no longer advertised",
			`Base advertised ‵prompts‵, ‵resources‵ or ‵resources.subscribe‵, but its capture recorded that
the method behind it (‵prompts/list‵, ‵resources/list‵, ‵resources/subscribe‵) answered -32601
Method not found (the snapshot's ‵failedMethods‵). No client could use it, so withdrawing the
declaration breaks nobody: it fixes the ‵capability-method-not-found‵ finding of base. Reported
instead of ‵capability-prompts-removed‵, ‵capability-resources-removed‵ or
‵capability-resources-subscribe-removed‵.`),
		surfaceChange(CapabilityListChangedRemoved, SeverityRisky, "surface", "",
			"A listChanged capability is no longer true",
			`No request fails, but clients that relied on ‵notifications/*/list_changed‵ keep stale
lists of tools, prompts or resources. The pointer names which capability.`),
		surfaceChange(CapabilityListChangedAdded, SeverityMinor, "surface", "sec",
			"A listChanged capability became true",
			`Additive. Note that list-change notifications are also the channel through which tool
definitions can change in the middle of a session (a runtime rug pull), which a CI diff of the
shipped surface cannot see: pair it with runtime pinning of tool definitions.`),
		surfaceChange(CapabilityCompletionsRemoved, SeverityBreaking, "surface", "wire",
			"capabilities.completions was removed",
			`‵completion/complete‵ now fails for clients that used argument completion.`),
		surfaceChange(CapabilityCompletionsAdded, SeverityMinor, "surface", "",
			"capabilities.completions was added",
			`Additive.`),
		surfaceChange(CapabilityLoggingRemoved, SeverityRisky, "surface", "",
			"capabilities.logging was removed",
			`‵logging/setLevel‵ becomes unavailable and log notifications stop. Logging is deprecated
in 2026-07-28, so this is risky rather than breaking by default.`),
		surfaceChange(CapabilityLoggingAdded, SeverityMinor, "surface", "",
			"capabilities.logging was added",
			`Additive.`),
		surfaceChange(CapabilityTasksToolCallRemoved, SeverityBreaking, "surface", "wire",
			"capabilities.tasks.requests.tools.call was removed",
			`Task-augmented ‵tools/call‵ requests are now rejected (2025-11-25 tasks).`),
		surfaceChange(CapabilityTasksManagementRemoved, SeverityRisky, "surface", "",
			"capabilities.tasks.list or tasks.cancel was removed",
			`Clients lose task listing or cancellation; the calls themselves still work. Other
‵tasks‵ sub-capabilities this version does not know are reported under this rule too (fail closed).`),
		surfaceChange(CapabilityTasksAdded, SeverityMinor, "surface", "",
			"A tasks capability was added",
			`Additive. One finding per new sub-capability (‵tasks.list‵, ‵tasks.cancel‵,
‵tasks.requests.tools.call‵, …).`),
		surfaceChange(CapabilityExtensionRemoved, SeverityRisky, "surface", "",
			"An extension was removed from capabilities.extensions",
			`Extension-dependent client features stop working. Clients negotiate extensions, so this is
not a hard break by default.`),
		surfaceChange(CapabilityExtensionAdded, SeverityMinor, "surface", "",
			"An extension was added to capabilities.extensions",
			`Additive.`),
		surfaceChange(CapabilityExtensionSettingsChanged, SeverityRisky, "surface", "",
			"The settings object of an extension changed",
			`The extension owns the meaning of its settings, so the change cannot be judged
generically. Check the extension's documentation.`),
		surfaceChange(CapabilityExperimentalRemoved, SeverityRisky, "surface", "",
			"A key was removed from capabilities.experimental",
			`A non-standard feature was withdrawn; clients that used it lose it.`),
		surfaceChange(CapabilityExperimentalAdded, SeverityMinor, "surface", "",
			"A key was added to capabilities.experimental",
			`Additive.`),
		surfaceChange(CapabilityExperimentalChanged, SeverityMinor, "surface", "",
			"The value of an experimental capability changed",
			`Experimental by definition; informational-plus.`),
		surfaceChange(CapabilityUnknownChanged, SeverityRisky, "surface", "",
			"A capability the specification does not define was added, removed or changed",
			`Not in the catalog. Capabilities are an open set: a server may advertise capabilities
this version of mcp-surface does not know (including sub-keys of known ones). Their meaning
cannot be judged, so the change is reported (fail closed) rather than dropped.`),
	}
}
