package rules

const (
	SnapshotOutOfDate = "snapshot-out-of-date"
)

func pipelineRules() []Rule {
	return []Rule{
		{
			ID:      SnapshotOutOfDate,
			Kind:    KindLint,
			Level:   LevelError,
			Tags:    []string{"lint", "wire"},
			Summary: "The committed snapshot no longer matches what the server advertises",
			Help: `The repository carries a snapshot (` + "`mcp-surface.json`" + `) that is meant to be the
reviewed contract of the server, but the server built from the same commit
advertises something else. Reviewers who read the snapshot's diff in the pull
request did not see the surface that will ship.

**What to do.** Run ` + "`mcp-surface snapshot -- <your server command>`" + ` and commit the
file, so that the pull request shows the real change. If the snapshot is not
meant to be kept up to date, remove it or turn this rule off in
` + "`.mcp-surface.yaml`" + ` (` + "`severity: {snapshot-out-of-date: off}`" + `).`,
		},
	}
}
