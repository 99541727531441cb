package manifest

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// splitItems returns the raw elements of the array under key in a result
// object, without decoding anything else; nil when the key is absent or
// null.
func splitItems(result []byte, key string) ([]json.RawMessage, error) {
	s := canonjson.NewScanner(result)
	s.SkipSpace()
	if s.Peek() != '{' {
		return nil, errors.New("result is not a JSON object")
	}
	var items []json.RawMessage
	found := false
	err := s.EachMember(func(name string) error {
		if name != key {
			return s.SkipValue(1)
		}
		// A repeated key keeps its last value, as encoding/json does.
		found, items = true, nil
		switch s.Peek() {
		case 'n':
			found = false
			return s.Literal("null")
		case '[':
		default:
			return fmt.Errorf("%q is not an array", key)
		}
		return s.EachElement(func(int) error {
			start := s.Pos
			if err := s.SkipValue(2); err != nil {
				return err
			}
			items = append(items, json.RawMessage(result[start:s.Pos]))
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if err := s.End(); err != nil {
		return nil, err
	}
	if !found {
		return nil, nil
	}
	return items, nil
}
