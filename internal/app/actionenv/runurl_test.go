package actionenv

import "testing"

func TestRunURL(t *testing.T) {
	c := &Context{ServerURL: "https://github.example/", Repository: "o/r", RunID: "7"}
	if got, want := c.RunURL(), "https://github.example/o/r/actions/runs/7"; got != want {
		t.Errorf("first attempt: %q, want %q", got, want)
	}
	c.RunAttempt = "2"
	if got, want := c.RunURL(), "https://github.example/o/r/actions/runs/7/attempts/2"; got != want {
		t.Errorf("second attempt: %q, want %q", got, want)
	}
	c.RunID = ""
	if got := c.RunURL(); got != "" {
		t.Errorf("no run: %q", got)
	}
}
