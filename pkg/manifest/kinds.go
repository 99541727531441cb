package manifest

import (
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// ItemKind describes one kind of item a server lists: where the snapshot
// keeps it, how it is listed, what identifies it and what findings call
// it. Every package that maps between these names reads this one table.
type ItemKind struct {
	// List is the snapshot's top-level key, which is also the key of
	// the item array in the list result.
	List string
	// Method is the list method.
	Method string
	// Identity is the member that identifies an item.
	Identity string
	// Subject is the kind of finding subject an item is.
	Subject string
	// Noun names the kind in messages.
	Noun string
}

// ItemKinds lists every kind of item, in snapshot file order (the order
// of Lists).
var ItemKinds = []ItemKind{
	{ListPrompts, capture.MethodPromptsList, "name", finding.KindPrompt, "prompt"},
	{ListResourceTemplates, capture.MethodResourceTemplatesList, "uriTemplate", finding.KindResourceTemplate, "resource template"},
	{ListResources, capture.MethodResourcesList, "uri", finding.KindResource, "resource"},
	{ListTools, capture.MethodToolsList, "name", finding.KindTool, "tool"},
}

// KindOfList returns the kind of item a snapshot list holds.
func KindOfList(list string) (ItemKind, bool) {
	return findKind(func(k ItemKind) bool { return k.List == list })
}

// KindOfMethod returns the kind of item a list method lists.
func KindOfMethod(method string) (ItemKind, bool) {
	return findKind(func(k ItemKind) bool { return k.Method == method })
}

// KindOfSubject returns the kind of item a finding subject kind names.
func KindOfSubject(subject string) (ItemKind, bool) {
	return findKind(func(k ItemKind) bool { return k.Subject == subject })
}

func findKind(match func(ItemKind) bool) (ItemKind, bool) {
	for _, k := range ItemKinds {
		if match(k) {
			return k, true
		}
	}
	return ItemKind{}, false
}
