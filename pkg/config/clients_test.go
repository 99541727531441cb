package config

import (
	"strings"
	"testing"
	"time"
)

func TestClients(t *testing.T) {
	c, err := Parse("c.yaml", []byte("clients: [openai, claude-code:github]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Clients) != 2 || c.Clients[1].Label() != "claude-code:github" {
		t.Fatalf("clients = %+v", c.Clients)
	}
	if got := c.LintOptions().Clients; len(got) != 2 {
		t.Errorf("LintOptions().Clients = %v", got)
	}
	if got := c.DiffOptions(time.Time{}).Clients; len(got) != 2 {
		t.Errorf("DiffOptions().Clients = %v", got)
	}
	_, err = Parse("c.yaml", []byte("clients:\n  - openai\n  - gemni\n"))
	if err == nil || !strings.Contains(err.Error(), "c.yaml:3") || !strings.Contains(err.Error(), "gemini") {
		t.Errorf("an unknown profile is reported at its line with the known ones: %v", err)
	}
}
