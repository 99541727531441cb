package spec

import (
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// rawJSON reports what a JSON parser repairs silently in the frames the
// server sent: repeated member names and bytes that are not UTF-8. The
// snapshot keeps the repaired value (the last of the names, U+FFFD), so
// only the raw frames show them. One finding per rule and pointer inside
// the frame, naming the first frame and how many others share it.
func (k *checker) rawJSON(frames []capture.Frame) {
	type issue struct {
		rule, pointer, first string
		count                int
	}
	var issues []*issue
	byKey := map[string]*issue{}
	for _, f := range frames {
		if f.Dir != capture.Received {
			continue
		}
		problems, err := canonjson.Audit(f.Data)
		if err != nil {
			continue // the envelope check reports frames that are not JSON
		}
		for _, p := range problems {
			var rule, msg string
			switch p.Kind {
			case canonjson.ProblemDuplicateKey:
				rule = rules.DuplicateJsonKey
				if slices.Contains(rules.IdentityKeys, p.Key) {
					rule = rules.DuplicateIdentityKey
				}
				msg = fmt.Sprintf("frame %d: the object names %q %d times; clients disagree on which value counts (mcp-surface keeps the last)", f.Seq, p.Key, p.Count)
			case canonjson.ProblemInvalidUTF8:
				rule = rules.InvalidUtf8
				msg = fmt.Sprintf("frame %d: the string holds bytes that are not UTF-8 (read as U+FFFD)", f.Seq)
			default:
				continue
			}
			key := rule + "\x00" + p.Pointer.String()
			if is, ok := byKey[key]; ok {
				is.count++
				continue
			}
			is := &issue{rule: rule, pointer: p.Pointer.String(), first: msg, count: 1}
			byKey[key] = is
			issues = append(issues, is)
		}
	}
	for _, is := range issues {
		msg := is.first
		if is.count > 1 {
			msg += fmt.Sprintf(" (and %d more at this pointer in other frames)", is.count-1)
		}
		k.add(is.rule, server, is.pointer, msg)
	}
}
