package report

import (
	"sort"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// HasBreaking reports an unacknowledged change of severity breaking.
func (r *Report) HasBreaking() bool {
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			if CategoryOf(f.Rule) == CategoryChange && f.Severity == rules.SeverityBreaking && f.Acknowledged == "" {
				return true
			}
		}
	}
	return false
}

// ManifestHashes are the head and base manifest hashes as one value each
// (a workflow output): the hash for one server, one sorted "name=hash"
// line per server for several.
func (r *Report) ManifestHashes() (head, base string) {
	if len(r.Servers) == 1 {
		s := r.Servers[0]
		if s.Head != nil {
			head = s.Head.ManifestHash
		}
		if s.Base != nil {
			base = s.Base.ManifestHash
		}
		return head, base
	}
	var hs, bs []string
	for _, s := range r.Servers {
		if s.Head != nil && s.Head.ManifestHash != "" {
			hs = append(hs, s.Server+"="+s.Head.ManifestHash)
		}
		if s.Base != nil && s.Base.ManifestHash != "" {
			bs = append(bs, s.Server+"="+s.Base.ManifestHash)
		}
	}
	sort.Strings(hs)
	sort.Strings(bs)
	return strings.Join(hs, "\n"), strings.Join(bs, "\n")
}
