package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// validate --clients runs the client profiles on a live server: the test
// server's SDK-generated schemas set additionalProperties, which Gemini's
// function declarations do not accept, and the findings say where and why.
func TestValidateClients(t *testing.T) {
	args := append([]string{"validate", "--format", "json", "--clients", "gemini,openai", "--"}, serverCmd()...)
	r := run(t, append(offlineSchemas(t), serverEnvFor(testserver.ModeFull)...), args...)
	if r.code != frontend.ExitOK { // warnings do not fail at the default fail-on
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep struct {
		Findings []struct {
			Rule    string   `json:"rule"`
			Level   string   `json:"level"`
			Tags    []string `json:"tags"`
			Pointer string   `json:"pointer"`
			Message string   `json:"message"`
			Subject struct{ Kind, Name string }
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Rule != rules.ClientSchemaKeywordUnsupported {
			continue
		}
		n++
		if f.Level != "warning" || f.Subject.Kind != "tool" || !strings.HasPrefix(f.Pointer, "/inputSchema") ||
			!strings.Contains(f.Message, "gemini") || !strings.Contains(f.Message, "https://ai.google.dev/") {
			t.Errorf("finding %+v", f)
		}
	}
	if n == 0 {
		t.Fatalf("no %s finding for the SDK's schemas:\n%s", rules.ClientSchemaKeywordUnsupported, r.stdout)
	}

	// The terminal and the markdown say, per tool, which client rejects
	// which keyword, and claim no comparison ("surface unchanged").
	for _, format := range []string{"text", "markdown"} {
		args := append([]string{"validate", "--format", format, "--clients", "gemini", "--"}, serverCmd()...)
		out := run(t, append(offlineSchemas(t), serverEnvFor(testserver.ModeFull)...), args...).stdout
		if strings.Contains(out, "surface unchanged") {
			t.Errorf("%s: a validation says \"surface unchanged\":\n%s", format, out)
		}
		for _, f := range rep.Findings {
			if f.Rule != rules.ClientSchemaKeywordUnsupported {
				continue
			}
			kw := f.Pointer[strings.LastIndexByte(f.Pointer, '/')+1:]
			if !strings.Contains(out, "&quot;"+strings.ReplaceAll(kw, "$", "&#36;")+"&quot;") && !strings.Contains(out, `"`+kw+`"`) {
				t.Errorf("%s: keyword %s of tool %s is not named:\n%s", format, kw, f.Subject.Name, out)
			}
		}
	}

	// Without --clients nothing is said about clients.
	plain := run(t, serverEnvFor(testserver.ModeFull), append([]string{"validate", "--format", "json", "--"}, serverCmd()...)...)
	if strings.Contains(plain.stdout, "client-") {
		t.Errorf("client findings without --clients:\n%s", plain.stdout)
	}
	// An unknown profile is a usage error naming the known ones.
	bad := run(t, serverEnvFor(testserver.ModeFull), append([]string{"validate", "--clients", "gemni", "--"}, serverCmd()...)...)
	if bad.code != frontend.ExitFailure || !strings.Contains(bad.stderr, "openai-strict") {
		t.Errorf("--clients gemni: exit %d: %s", bad.code, bad.stderr)
	}
}
