package actionenv

import "strings"

// RunURL is the address of the workflow run (of its attempt after the
// first), or "" when the context lacks the server, repository or run.
func (c *Context) RunURL() string {
	if c.ServerURL == "" || c.Repository == "" || c.RunID == "" {
		return ""
	}
	u := strings.TrimSuffix(c.ServerURL, "/") + "/" + c.Repository + "/actions/runs/" + c.RunID
	if c.RunAttempt != "" && c.RunAttempt != "1" {
		u += "/attempts/" + c.RunAttempt
	}
	return u
}
