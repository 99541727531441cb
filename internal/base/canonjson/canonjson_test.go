package canonjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestNumber(t *testing.T) {
	tabletest.MapNoError(t, "Number", Number, map[string]string{
		"0": "0", "-0": "0", "0.0": "0", "1.0": "1", "-2.50": "-2.5", "1E+2": "100", "10e-1": "1",
		"1e20": "100000000000000000000", "1e21": "1e+21", "0.000001": "0.000001", "1e-7": "1e-7",
		"12.5e-10": "1.25e-9", "123456789012345678901234": "1.23456789012345678901234e+23", "1e400": "1e+400",
	})
	if _, err := Number("1e1000000"); err == nil {
		t.Error("an exponent of seven digits is accepted")
	}
}

func TestAppendString(t *testing.T) {
	tabletest.Map(t, "AppendString", func(s string) string { return string(AppendString(nil, s)) }, map[string]string{
		"plain": `"plain"`, "a\"b\\c": `"a\"b\\c"`, "\n\r\t\b\f": `"\n\r\t\b\f"`, "\x00\x1f": `"\u0000\u001f"`,
		"<&>": `"<&>"`, "\u2028\u2029": "\"\u2028\u2029\"", "\xff": "\"\ufffd\"",
	})
}

// The one depth limit counts the same way for every reader: a value at
// depth MaxDepth is read, one below it is refused.
func TestDepthLimit(t *testing.T) {
	nest := func(n int) []byte { return []byte(strings.Repeat("[", n) + "1" + strings.Repeat("]", n)) }
	if _, err := Canonicalize(nest(MaxDepth)); err != nil {
		t.Errorf("Canonicalize at the limit: %v", err)
	}
	if _, err := Decode(nest(MaxDepth)); err != nil {
		t.Errorf("Decode at the limit: %v", err)
	}
	for name, f := range map[string]func([]byte) error{
		"Canonicalize": func(b []byte) error { _, err := Canonicalize(b); return err },
		"Decode":       func(b []byte) error { _, err := Decode(b); return err },
		"SkipValue":    func(b []byte) error { return NewScanner(b).SkipValue(0) },
	} {
		if err := f(nest(MaxDepth + 1)); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%s beyond the limit: %v", name, err)
		}
	}
}

func TestScannerRefuses(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a"}`, `[1,]`, `01`, `1.`, `"\x"`, "\"\x01\"", `tru`, `{} x`, `"\u12"`, `"abc`} {
		if _, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize(%q) succeeded", in)
		}
	}
}
