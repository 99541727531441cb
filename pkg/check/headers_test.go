package check

import "testing"

func TestParseHeaders(t *testing.T) {
	t.Parallel()
	getenv := func(k string) string { return map[string]string{"TOKEN": "s3cret"}[k] }
	h, err := ParseHeaders([]string{"Authorization: Bearer ${TOKEN}", "X-A:  1 "}, getenv)
	if err != nil || h.Get("Authorization") != "Bearer s3cret" || h.Get("X-A") != "1" {
		t.Errorf("ParseHeaders = %v, %v", h, err)
	}
	if _, err := ParseHeaders([]string{"no colon"}, getenv); err == nil || err.Error() != `"no colon": use 'Name: value'` {
		t.Errorf("no colon: %v", err)
	}
	if _, err := ParseHeaders([]string{"X-B: ${UNSET}"}, getenv); err == nil || err.Error()[:5] != "X-B: " {
		t.Errorf("unset variable: %v", err)
	}
}
