package policy

import (
	"fmt"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Policy applies a Config to findings at one moment. It implements
// diff.Policy, and serves every other producer (spec, lint) as well.
type Policy struct {
	c   *config.Config
	now time.Time
}

// New binds the configuration to the clock used for expiry dates (the
// caller's: nothing below the CLI reads the clock). A nil Config gives a
// policy that changes nothing.
func New(c *config.Config, now time.Time) *Policy { return &Policy{c: c, now: now} }

// Apply is the one policy step of every command: it applies severity
// overrides and the profile to each finding (Adjust), drops the findings
// of rules turned off, then marks acknowledged findings and adds one for
// each expired acknowledgement (Acknowledge). The input is not modified.
func (p *Policy) Apply(fs []finding.Finding) []finding.Finding {
	var kept []finding.Finding
	for _, f := range fs {
		if p.Adjust(&f) {
			kept = append(kept, f)
		}
	}
	return p.Acknowledge(kept)
}

// Adjust applies severity overrides, then the profile, to one finding; it
// reports false when the rule is turned off. Explicit overrides win over
// the profile.
func (p *Policy) Adjust(f *finding.Finding) bool {
	if p == nil || p.c == nil {
		return true
	}
	if o, ok := p.c.Severity[f.Rule]; ok {
		if o.Off {
			return false
		}
		setSeverity(f, o.Severity)
		return true
	}
	r, ok := rules.Lookup(f.Rule)
	if !ok || !r.HasTag("strict") {
		return true
	}
	switch p.c.Profile {
	case config.ProfileStrict:
		setSeverity(f, rules.SeverityBreaking)
	case config.ProfileLenient:
		setSeverity(f, rules.SeverityMinor)
	}
	return true
}

// setSeverity changes a change finding's severity and level; a spec or
// lint finding (no severity) takes the severity's level only.
func setSeverity(f *finding.Finding, s rules.Severity) {
	if f.Severity != "" {
		f.Severity = s
	}
	f.Level = s.Level()
}

// Acknowledge marks findings matched by an unexpired acknowledgement
// (finding.Acknowledged = reason; the first matching entry wins) and
// appends a config-acknowledgement-expired finding for every expired
// entry, matched or not. Expired entries acknowledge nothing.
func (p *Policy) Acknowledge(fs []finding.Finding) []finding.Finding {
	if p == nil || p.c == nil || len(p.c.Acknowledged) == 0 {
		return fs
	}
	today := time.Date(p.now.UTC().Year(), p.now.UTC().Month(), p.now.UTC().Day(), 0, 0, 0, 0, time.UTC)
	var live []*config.Ack
	var expired []finding.Finding
	for i := range p.c.Acknowledged {
		a := &p.c.Acknowledged[i]
		if !a.Expires.IsZero() && today.After(a.Expires) {
			f := p.expired(a)
			if p.Adjust(&f) {
				expired = append(expired, f)
			}
			continue
		}
		live = append(live, a)
	}
	for i := range fs {
		if fs[i].Acknowledged != "" {
			continue
		}
		for _, a := range live {
			if matches(a, fs[i]) {
				fs[i].Acknowledged = a.Reason
				break
			}
		}
	}
	return append(fs, expired...)
}

// matches reports whether the acknowledgement a covers the finding f.
func matches(a *config.Ack, f finding.Finding) bool {
	return a.Matches(config.AckTarget{
		Rule: f.Rule, Fingerprint: f.Fingerprint, Pointer: f.Pointer,
		SubjectKind: f.Subject.Kind, SubjectName: f.Subject.Name,
	})
}

func (p *Policy) expired(a *config.Ack) finding.Finding {
	subj := finding.Subject{Kind: finding.KindServer}
	if a.SubjectKind != "" {
		subj = finding.Subject{Kind: a.SubjectKind, Name: a.SubjectName}
	}
	entry := map[string]any{"expires": a.Expires.Format("2006-01-02"), "reason": a.Reason}
	for k, v := range map[string]string{"rule": a.Rule, "pointer": a.Pointer, "fingerprint": a.Fingerprint} {
		if v != "" {
			entry[k] = v
		}
	}
	if a.SubjectKind != "" {
		entry["subject"] = map[string]any{"kind": a.SubjectKind, "name": a.SubjectName}
	}
	before, _ := canonjson.CanonicalizeValue(entry)
	what := a.Rule
	if what == "" {
		what = "fingerprint " + a.Fingerprint
	}
	msg := fmt.Sprintf("%s:%d: the acknowledgement of %s expired on %s (reason: %q); fix the change or renew the acknowledgement",
		p.c.File, a.Line, what, a.Expires.Format("2006-01-02"), a.Reason)
	return finding.New(rules.ConfigAcknowledgementExpired, subj, "", msg, before, nil)
}
