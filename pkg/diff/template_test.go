package diff

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestParseTemplate(t *testing.T) {
	parts, err := parseTemplate("db://{table}{/id*}{?limit,offset:3}x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range parts {
		if p.expr {
			got = append(got, p.String())
		} else {
			got = append(got, p.literal)
		}
	}
	if strings.Join(got, "|") != "db://|{table}|{/id*}|{?limit,offset:3}|x" {
		t.Errorf("parts = %q", got)
	}
	for _, bad := range []string{"a{b", "a}b", "{}", "{=x}", "{x:0}", "{,}"} {
		if _, err := parseTemplate(bad); err == nil {
			t.Errorf("parseTemplate(%q) accepted", bad)
		}
	}
}

func TestReservedMetaKey(t *testing.T) {
	d := newDiffer(nil, nil, Options{})
	tabletest.Map(t, "reservedKey", d.reservedKey, map[string]bool{
		"io.modelcontextprotocol/related-task": true, "dev.mcp/x": true, "modelcontextprotocol.io/x": true,
		"com.example.mcp/x": false, "ui/resourceUri": true, "ui": true, "openai/outputTemplate": true,
		"com.example/x": false, "deprecated": false,
	})
}

func TestSkeleton(t *testing.T) {
	for a, b := range map[string]string{"get_user": "GetUser", "get-user": "get.user", "get_usеr": "get_user", "fi1e": "file"} {
		if skeleton(a) != skeleton(b) {
			t.Errorf("skeleton(%q) = %q, skeleton(%q) = %q", a, skeleton(a), b, skeleton(b))
		}
	}
}
