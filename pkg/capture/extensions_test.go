package capture_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

func toolNames(t *testing.T, pages []capture.Page) []string {
	t.Helper()
	var out []string
	for _, p := range pages {
		if p.Method != capture.MethodToolsList {
			continue
		}
		var r struct {
			Tools []struct{ Name string } `json:"tools"`
		}
		if err := json.Unmarshal(p.Result, &r); err != nil {
			t.Fatal(err)
		}
		for _, x := range r.Tools {
			out = append(out, x.Name)
		}
	}
	slices.Sort(out)
	return out
}

// The extension surface over both handshakes: skills over two pages
// with each SKILL.md read, groups over two pages with the nested group
// fetched, scoped tools out of tools/list, and in the view without
// extensions flattened into it.
func TestCaptureExtensions(t *testing.T) {
	for _, rev := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			c := capturetest.InProcess(t, testserver.ModeExtensions, capture.Options{ProtocolVersion: rev, FlatView: true})
			if n := len(c.PagesOf(capture.MethodSkillsList)); n != 2 {
				t.Errorf("skills/list pages = %d, want 2", n)
			}
			if n := len(c.PagesOf(capture.MethodGroupsList)); n != 2 {
				t.Errorf("groups/list pages = %d, want 2", n)
			}
			x := c.Extensions
			if x == nil {
				t.Fatal("no extension capture")
			}
			if len(x.SkillTexts) != 2 {
				t.Errorf("SKILL.md read %d times, want 2", len(x.SkillTexts))
			}
			var got []string
			for _, g := range x.Groups {
				got = append(got, g.Name+"@"+g.Parent)
			}
			if want := []string{"issues@", "reports@", "triage@issues"}; !slices.Equal(got, want) {
				t.Errorf("groups fetched %v, want %v", got, want)
			}
			if got, want := toolNames(t, c.Pages), []string{"create_issue", "ping"}; !slices.Equal(got, want) {
				t.Errorf("tools/list with groups declared = %v, want %v", got, want)
			}
			if got := toolNames(t, x.Flat); len(got) != 6 {
				t.Errorf("flattened tools/list = %v, want all 6 tools", got)
			}
		})
	}
}

func TestCaptureUnknownExtension(t *testing.T) {
	c := capturetest.InProcess(t, testserver.ModeExtensionsUnknown, capture.Options{})
	if !slices.Equal(c.Extensions.Uncaptured, []string{"com.example/widgets"}) {
		t.Errorf("uncaptured = %v", c.Extensions.Uncaptured)
	}
	if !slices.ContainsFunc(c.Diagnostics, func(d capture.Diagnostic) bool {
		return d.Code == capture.DiagExtensionUncaptured && strings.Contains(d.Message, "com.example/widgets")
	}) {
		t.Errorf("no diagnostic says com.example/widgets is not captured: %+v", c.Diagnostics)
	}
}

// A failed skills/list or groups/get is never an empty list: the
// capture's ListFailures name it (the command line exits 2 with it).
func TestCaptureExtensionFailuresFailClosed(t *testing.T) {
	for mode, method := range map[string]string{testserver.ModeSkillsListFails: capture.MethodSkillsList, testserver.ModeGroupsGetFails: capture.MethodGroupsGet} {
		c := capturetest.InProcess(t, mode, capture.Options{})
		fs := c.ListFailures()
		if len(fs) != 1 || fs[0].Method != method {
			t.Fatalf("%s: failures %+v, want one of %s", mode, fs, method)
		}
		var ie *capture.IncompleteError
		if e := error(&capture.IncompleteError{Failures: fs}); !errors.As(e, &ie) || !strings.Contains(e.Error(), method) {
			t.Errorf("%s: %v does not name %s", mode, e, method)
		}
	}
}

func TestCaptureToolboxGroups(t *testing.T) {
	c := capturetest.InProcess(t, testserver.ModeExtensionsToolbox, capture.Options{})
	if n := len(c.PagesOf(capture.GroupsListMethod(capture.ExtToolbox))); n != 1 {
		t.Errorf("toolbox groups/list pages = %d, want 1 (unpaginated)", n)
	}
	if n := len(c.Extensions.Groups); n != 3 {
		t.Errorf("toolbox groups fetched %d, want 3", n)
	}
}
