package diff

import "testing"

func TestNormalName(t *testing.T) {
	for in, want := range map[string]string{
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
	} {
		if got := normalName(in); got != want {
			t.Errorf("normalName(%q) = %q, want %q", in, got, want)
		}
	}
	if normalName("getTinyImage") == normalName("getTinyImages") {
		t.Error("different words must not fold together")
	}
}
