package manifest

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// The item kinds table is the one place the section, method, identity
// and subject of each kind are tied together; the capture's own list of
// list methods and result keys must agree with it.
func TestItemKindsAgreeWithCapture(t *testing.T) {
	if len(ItemKinds) != len(Sections) || len(ItemKinds) != len(capture.ListMethods) {
		t.Fatalf("%d kinds, %d sections, %d list methods", len(ItemKinds), len(Sections), len(capture.ListMethods))
	}
	for i, k := range ItemKinds {
		if Sections[i] != k.Section {
			t.Errorf("kind %d is %q, Sections has %q", i, k.Section, Sections[i])
		}
		if got := capture.ItemsKey[k.Method]; got != k.Section {
			t.Errorf("%s: capture reads items under %q, the snapshot keeps them under %q", k.Method, got, k.Section)
		}
		for _, f := range []func(string) (ItemKind, bool){KindOfSection, KindOfMethod, KindOfSubject} {
			for _, key := range []string{k.Section, k.Method, k.Subject} {
				if got, ok := f(key); ok && got != k {
					t.Errorf("%q finds %+v, want %+v", key, got, k)
				}
			}
		}
	}
}
