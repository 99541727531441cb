package rules

// Rules reported about the configuration itself (.mcp-surface.yaml).

const (
	ConfigAcknowledgementExpired = "config-acknowledgement-expired"
)

func configRules() []Rule {
	return []Rule{{
		ID:      ConfigAcknowledgementExpired,
		Kind:    KindLint,
		Level:   LevelError,
		Tags:    []string{"config"},
		Summary: "An acknowledged change in .mcp-surface.yaml has passed its expiry date",
		Help: helpText(`Acknowledgements may carry ‵expires: YYYY-MM-DD‵ so that exemptions do not rot. An
acknowledgement is valid through its expiry day (UTC); after that it no longer acknowledges
anything, and this finding is reported for it, whether or not it still matches a finding.

**What to do.** Fix the change, or renew the acknowledgement with a new date and an updated
‵reason‵. The message names the file and line.`),
	}}
}
