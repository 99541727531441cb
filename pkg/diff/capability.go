package diff

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// capabilityRules names the rules for adding and removing each top-level
// capability the rule table has rules for.
var capabilityRules = map[string]struct{ added, removed string }{
	"tools":       {rules.CapabilityToolsAdded, rules.CapabilityToolsRemoved},
	"prompts":     {rules.CapabilityPromptsAdded, rules.CapabilityPromptsRemoved},
	"resources":   {rules.CapabilityResourcesAdded, rules.CapabilityResourcesRemoved},
	"completions": {rules.CapabilityCompletionsAdded, rules.CapabilityCompletionsRemoved},
	"logging":     {rules.CapabilityLoggingAdded, rules.CapabilityLoggingRemoved},
}

// capabilities compares the capabilities (capability-* rules).
func (d *differ) capabilities() {
	bc, hc := parseObject(d.base.Capabilities), parseObject(d.head.Capabilities)
	s := serverSubject
	for _, k := range changedKeys(bc, hc) {
		b, h := bc.get(k), hc.get(k)
		p := ptr("/capabilities", k)
		switch k {
		case "tools", "prompts", "resources", "completions", "logging":
			switch r := capabilityRules[k]; {
			case isNull(b):
				d.emit(r.added, s, p, fmt.Sprintf("capability %s added", k), nil, h)
			case isNull(h):
				if m, ok := d.neverWorked(k); ok {
					d.emit(rules.CapabilityUnimplementedRemoved, s, p, fmt.Sprintf("capability %s removed, which never worked: base answered %s with -32601 Method not found", k, m), b, nil)
					continue
				}
				why, usable := d.offered(k)
				if !usable {
					d.emit(rules.CapabilityUnusedRemoved, s, p, fmt.Sprintf("capability %s removed, which offered nothing usable: %s", k, why), b, nil)
					continue
				}
				d.emit(r.removed, s, p, fmt.Sprintf("capability %s removed", k)+why, b, nil)
			default:
				bo, ho := parseObject(b), parseObject(h)
				if bo == nil || ho == nil {
					d.emit(rules.CapabilityUnknownChanged, s, p, changedMsg("capability "+k, b, h), b, h)
					continue
				}
				d.capabilityFlags(k, bo, ho)
			}
		case "tasks", "extensions", "experimental":
			bo, ho := parseObject(b), parseObject(h)
			if (bo == nil && !isNull(b)) || (ho == nil && !isNull(h)) {
				d.emit(rules.CapabilityUnknownChanged, s, p, changedMsg("capability "+k, b, h), b, h)
				continue
			}
			d.capabilityMap(k, p, b, h, bo, ho)
		default:
			d.emit(rules.CapabilityUnknownChanged, s, p, changedMsg("capability "+k, b, h), b, h)
		}
	}
}

func (d *differ) capabilityMap(k, p string, b, h json.RawMessage, bo, ho object) {
	switch k {
	case "tasks":
		d.tasks(b, h, bo, ho)
	case "extensions":
		d.keyed(p, "extension", bo, ho, rules.CapabilityExtensionRemoved,
			rules.CapabilityExtensionAdded, rules.CapabilityExtensionSettingsChanged)
	case "experimental":
		d.keyed(p, "experimental capability", bo, ho, rules.CapabilityExperimentalRemoved,
			rules.CapabilityExperimentalAdded, rules.CapabilityExperimentalChanged)
	}
}

// neverWorked reports whether base advertised a capability whose list
// answered -32601 Method not found (every list of it, for resources), and
// names the method.
func (d *differ) neverWorked(capability string) (string, bool) {
	var methods []string
	switch capability {
	case "prompts":
		methods = []string{capture.MethodPromptsList}
	case "resources":
		methods = []string{capture.MethodResourcesList, capture.MethodResourceTemplatesList}
	default:
		return "", false
	}
	for _, m := range methods {
		if d.base.FailedMethods[m] != capture.CodeMethodNotFound {
			return "", false
		}
	}
	return strings.Join(methods, " and "), true
}

// offered judges a withdrawn capability by what base shows a client
// could do through it (a prompt, a resource or template; for completions
// a prompt argument or template variable to complete; for
// resources.subscribe a resource, and a trial that worked). usable false
// comes with why nothing was; usable true may come with a note for the
// message ("; base records no trial ...": a snapshot written before trials
// were recorded keeps the verdict). A list base could not read (partial)
// is never taken for empty.
func (d *differ) offered(capability string) (why string, usable bool) {
	b := d.base
	failed := func(methods ...string) bool {
		for _, m := range methods {
			if _, ok := b.Partial[m]; ok || b.FailedMethods[m] != 0 {
				return true
			}
		}
		return false
	}
	trial := func(method string) (string, bool) {
		t, ok := b.CapabilityTrial(method)
		switch {
		case ok && t.Error != "":
			return fmt.Sprintf("base's trial of %s answered with error %d %q", method, t.Code, clip(t.Error, 120)), false
		case ok:
			return "", true
		}
		return "; base records no trial of " + method + " (a snapshot written before trials were recorded)", true
	}
	switch capability {
	case "prompts":
		if len(b.Prompts) > 0 || failed(capture.MethodPromptsList) {
			return "", true
		}
		return "base listed no prompt", false
	case "resources":
		if len(b.Resources)+len(b.ResourceTemplates) > 0 || failed(capture.MethodResourcesList, capture.MethodResourceTemplatesList) {
			return "", true
		}
		return "base listed no resource and no resource template", false
	case "completions":
		if !completable(b) && !failed(capture.MethodPromptsList, capture.MethodResourceTemplatesList) {
			return "base listed no prompt argument and no resource template variable to complete", false
		}
		return trial(capture.MethodCompletionComplete)
	case "resources.subscribe":
		if code := b.FailedMethods[capture.MethodResourcesSubscribe]; code != 0 {
			return fmt.Sprintf("base answered resources/subscribe with error %d", code), false
		}
		if len(b.Resources)+len(b.ResourceTemplates) == 0 && !failed(capture.MethodResourcesList, capture.MethodResourceTemplatesList) {
			return "base listed no resource to subscribe to", false
		}
		return trial(capture.MethodResourcesSubscribe)
	}
	return "", true
}

// completable reports whether a snapshot lists something completion/
// complete could complete: a prompt argument or a template variable.
func completable(m *manifest.Manifest) bool {
	for _, p := range m.Prompts {
		var v struct {
			Arguments []json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(p.Raw, &v) == nil && len(v.Arguments) > 0 {
			return true
		}
	}
	for _, t := range m.ResourceTemplates {
		if strings.Contains(t.ID, "{") {
			return true
		}
	}
	return false
}

// capabilityFlags compares the members of one capability present in both.
func (d *differ) capabilityFlags(name string, b, h object) {
	s := serverSubject
	for _, k := range changedKeys(b, h) {
		bv, hv := b.get(k), h.get(k)
		p := ptr("/capabilities", name, k)
		bt, _ := b.flag(k)
		ht, _ := h.flag(k)
		switch {
		case k == "listChanged" && name != "completions" && name != "logging":
			if bt == ht {
				// e.g. absent → false: no change in meaning.
				continue
			}
			if bt {
				d.emit(rules.CapabilityListChangedRemoved, s, p, fmt.Sprintf("%s.listChanged is no longer true", name), bv, hv)
			} else {
				d.emit(rules.CapabilityListChangedAdded, s, p, fmt.Sprintf("%s.listChanged is now true", name), bv, hv)
			}
		case k == "subscribe" && name == "resources":
			if bt == ht {
				continue
			}
			why, usable := d.offered("resources.subscribe")
			if bt && d.base.FailedMethods[capture.MethodResourcesSubscribe] == capture.CodeMethodNotFound {
				d.emit(rules.CapabilityUnimplementedRemoved, s, p, "resources.subscribe is no longer true, which never worked: base answered resources/subscribe with -32601 Method not found", bv, hv)
			} else if bt && !usable {
				d.emit(rules.CapabilityUnusedRemoved, s, p, "resources.subscribe is no longer true, which offered nothing usable: "+why, bv, hv)
			} else if bt {
				d.emit(rules.CapabilityResourcesSubscribeRemoved, s, p, "resources.subscribe is no longer true"+why, bv, hv)
			} else {
				d.emit(rules.CapabilityResourcesSubscribeAdded, s, p, "resources.subscribe is now true", bv, hv)
			}
		default:
			d.emit(rules.CapabilityUnknownChanged, s, p, changedMsg("capability "+name+"."+k, bv, hv), bv, hv)
		}
	}
}

// tasks compares capabilities.tasks by its leaf sub-capabilities.
func (d *differ) tasks(braw, hraw json.RawMessage, b, h object) {
	bl, hl := map[string]bool{}, map[string]bool{}
	if !isNull(braw) {
		leaves(b, "", bl)
	}
	if !isNull(hraw) {
		leaves(h, "", hl)
	}
	s := serverSubject
	for _, k := range unionKeys(bl, hl) {
		p := "/capabilities/tasks" + k
		name := "tasks" + strings.ReplaceAll(k, "/", ".")
		switch {
		case bl[k] && !hl[k]:
			rule := rules.CapabilityTasksManagementRemoved
			if k == "/requests/tools/call" {
				rule = rules.CapabilityTasksToolCallRemoved
			}
			d.emit(rule, s, p, fmt.Sprintf("capability %s removed", name), jsonString(name), nil)
		case hl[k] && !bl[k]:
			d.emit(rules.CapabilityTasksAdded, s, p, fmt.Sprintf("capability %s added", name), nil, jsonString(name))
		}
	}
}

// leaves collects the pointers of the leaves of a present capability
// tree: values that are not objects, and empty objects ("" for an empty
// root: tasks supported with no sub-capability).
func leaves(o object, prefix string, out map[string]bool) {
	if len(o) == 0 {
		out[prefix] = true
		return
	}
	for k, v := range o {
		p := ptr(prefix, k)
		if isNull(v) {
			continue
		}
		if sub := parseObject(v); sub != nil {
			leaves(sub, p, out)
		} else {
			out[p] = true
		}
	}
}

// keyed compares a map of named capabilities (extensions, experimental).
func (d *differ) keyed(p, what string, b, h object, removed, added, changed string) {
	s := serverSubject
	for _, k := range changedKeys(b, h) {
		bv, hv := b.get(k), h.get(k)
		kp := ptr(p, k)
		switch {
		case isNull(bv):
			d.emit(added, s, kp, fmt.Sprintf("%s %q added", what, k), nil, hv)
		case isNull(hv):
			d.emit(removed, s, kp, fmt.Sprintf("%s %q removed", what, k), bv, nil)
		default:
			d.emit(changed, s, kp, fmt.Sprintf("%s %q settings changed from %s to %s", what, k, short(bv), short(hv)), bv, hv)
		}
	}
}
