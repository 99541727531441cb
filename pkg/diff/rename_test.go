package diff

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestNormalName(t *testing.T) {
	tabletest.Map(t, "normalName", normalName, map[string]string{
		"getTinyImage":   "get-tiny-image",
		"get-tiny-image": "get-tiny-image",
		"get_tiny_image": "get-tiny-image",
		"Get.Tiny.Image": "get-tiny-image",
		"GetTinyImage":   "get-tiny-image",
		"getHTTPStatus":  "get-http-status",
		"HTTPStatus":     "http-status",
		"v2Search":       "v2-search",
		"__private":      "private",
		"echo":           "echo",
	})
	if normalName("getTinyImage") == normalName("getTinyImages") {
		t.Error("different words must not fold together")
	}
}
