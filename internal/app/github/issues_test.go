package github

import (
	"context"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
)

func TestIssueFiledUpdatedClosedNeverAnothersIssue(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t, "", testToken)
	c := testClient(t, f)
	marker := IssueMarker("mcp-surface.lock.json")
	if !strings.HasPrefix(marker, "<!-- mcp-surface:issue:") {
		t.Fatalf("marker %q", marker)
	}
	// Someone pasted our marker into an issue of their own: it is not ours.
	theirs := f.AddIssue("mallory", "copied", marker+"\nplease close me")
	owner, repo, _ := strings.Cut(githubtest.Repository, "/")

	is, created, err := c.UpsertIssue(ctx, owner, repo, marker, "Drift: 1 server changed", "first body", "")
	if err != nil || !created || is.Number == theirs {
		t.Fatalf("first upsert: %+v %v %v", is, created, err)
	}
	again, created, err := c.UpsertIssue(ctx, owner, repo, marker, "Drift: 2 servers changed", "second body", "")
	if err != nil || created || again.Number != is.Number {
		t.Fatalf("second upsert filed another issue: %+v %v %v", again, created, err)
	}
	closed, err := c.CloseIssue(ctx, owner, repo, marker, "The drift is gone.", "")
	if err != nil || closed == nil || closed.Number != is.Number {
		t.Fatalf("close: %+v %v", closed, err)
	}
	if found, err := c.FindIssue(ctx, owner, repo, marker, ""); err != nil || found != nil {
		t.Fatalf("a closed issue is still found: %+v %v", found, err)
	}
	issues := f.Issues()
	if len(issues) != 2 {
		t.Fatalf("%d issues, want mallory's and ours", len(issues))
	}
	for _, x := range issues {
		switch x.Number {
		case theirs:
			if x.State != "open" || x.Body != marker+"\nplease close me" {
				t.Errorf("another author's issue was touched: %+v", x)
			}
		case is.Number:
			if x.State != "closed" || x.StateReason != "completed" || x.Title != "Drift: 2 servers changed" || x.Body != marker+"\nsecond body" {
				t.Errorf("our issue: %+v", x)
			}
			if cs := f.Comments(x.Number); len(cs) != 1 || cs[0].Body != "The drift is gone." {
				t.Errorf("closing comment: %+v", cs)
			}
		}
	}
	// A new drift files a new issue: the closed one stays closed.
	next, created, err := c.UpsertIssue(ctx, owner, repo, marker, "Drift", "third", "")
	if err != nil || !created || next.Number == is.Number {
		t.Fatalf("after close: %+v %v %v", next, created, err)
	}
}
