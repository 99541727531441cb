package manifest

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// The item kinds table is the one place the list, method, identity
// and subject of each kind are tied together; the capture's own list of
// list methods and result keys must agree with it.
func TestItemKindsAgreeWithCapture(t *testing.T) {
	if len(ItemKinds) != len(Lists) || len(ItemKinds) != len(capture.ListMethods) {
		t.Fatalf("%d kinds, %d lists, %d list methods", len(ItemKinds), len(Lists), len(capture.ListMethods))
	}
	for i, k := range ItemKinds {
		if Lists[i] != k.List {
			t.Errorf("kind %d is %q, Lists has %q", i, k.List, Lists[i])
		}
		if got := capture.ItemsKey[k.Method]; got != k.List {
			t.Errorf("%s: capture reads items under %q, the snapshot keeps them under %q", k.Method, got, k.List)
		}
		for _, f := range []func(string) (ItemKind, bool){KindOfList, KindOfMethod, KindOfSubject} {
			for _, key := range []string{k.List, k.Method, k.Subject} {
				if got, ok := f(key); ok && got != k {
					t.Errorf("%q finds %+v, want %+v", key, got, k)
				}
			}
		}
	}
}
