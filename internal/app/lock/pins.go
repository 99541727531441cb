package lock

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Fails reports whether the outcome fails `lock --check`: its status
// does, or the registry serves other bytes for its locked package.
func (o *Outcome) Fails() bool {
	return o.Status.Fails() || slices.ContainsFunc(o.Section.Findings, func(f finding.Finding) bool { return f.Rule == rules.PackageIntegrityChanged })
}

// launchSpec is the package a declared server launches, if any.
func launchSpec(s clientconfig.Server) (Spec, bool) {
	if s.Transport != clientconfig.TransportStdio {
		return Spec{}, false
	}
	return ParseLaunch(s.Command, s.Args)
}

// resolve reads a spec's package from its registry; skipped says why it
// was not (no registry, or the registry failed), for people.
func (o *Options) resolve(ctx context.Context, s clientconfig.Server, spec Spec) (res *Resolved, skipped string) {
	if o.Registries == nil {
		why := o.NoRegistry
		if why == "" {
			why = "no registry"
		}
		return nil, "the package check was skipped (" + why + ")"
	}
	env := append(slices.Clone(o.Environ), s.Env...)
	res, err := o.Registries.Resolve(ctx, spec, env)
	if err != nil {
		return nil, "the package check was skipped: " + Redact(err.Error(), s.Secrets)
	}
	return res, ""
}

// floating is the finding of a spec that pins neither a version nor a
// digest, with the argument to write instead.
func floating(spec Spec, res *Resolved) (finding.Finding, bool) {
	if spec.Pinned() {
		return finding.Finding{}, false
	}
	subj := finding.Subject{Kind: finding.KindServer, Name: spec.Name}
	if res == nil || res.Package == nil {
		msg := fmt.Sprintf("%s %s floats: pin an exact version", spec.Launcher, spec.Written)
		if res != nil && res.Latest != "" {
			msg += fmt.Sprintf(" (the registry's latest is %s)", res.Latest)
		}
		return finding.New(rules.PackageSpecFloating, subj, "", msg, nil, nil), true
	}
	pinned := PinnedSpec(spec, res.Package)
	after, _ := json.Marshal(pinned)
	what := res.Package.Version
	if spec.Ecosystem == EcosystemOCI {
		what = res.Package.Integrity
	}
	return finding.New(rules.PackageSpecFloating, subj, "",
		fmt.Sprintf("%s %s floats (the registry serves %s today): write %s", spec.Launcher, spec.Written, what, pinned), nil, after), true
}

// pinFindings are the package findings of a check: a floating spec, the
// registry serving other bytes for the locked version (fails the check),
// a newer version (a note).
func pinFindings(spec Spec, res *Resolved, locked *Package) []finding.Finding {
	var out []finding.Finding
	if f, ok := floating(spec, res); ok {
		out = append(out, f)
	}
	if locked == nil || res == nil {
		return out
	}
	subj := finding.Subject{Kind: finding.KindServer, Name: spec.Name}
	now := res.Package
	if now != nil && now.Ecosystem == locked.Ecosystem && now.Name == locked.Name && now.Version == locked.Version && !now.SameBytes(locked) {
		before, _ := json.Marshal(locked.Digest())
		after, _ := json.Marshal(now.Digest())
		out = append(out, finding.New(rules.PackageIntegrityChanged, subj, "",
			fmt.Sprintf("the registry serves other bytes for %s %s: locked %s, now %s", locked.Name, locked.Version, locked.Digest(), now.Digest()), before, after))
	}
	if locked.Ecosystem != EcosystemOCI && res.Latest != "" && res.Latest != locked.Version {
		out = append(out, finding.New(rules.PackageVersionNewer, subj, "",
			fmt.Sprintf("%s %s is published (the lock pins %s)", locked.Name, res.Latest, locked.Version), nil, nil))
	}
	return out
}
