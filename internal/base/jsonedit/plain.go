package jsonedit

import (
	"errors"
	"fmt"
)

// Plain turns JSON with comments (// and /* */) and trailing commas,
// as VS Code, Cursor and Gemini CLI accept in their settings, into plain
// JSON. Comments become spaces (newlines kept), so that offsets and line
// numbers in later errors still point into the file as written. Strings
// are copied as they are.
func Plain(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data))
	line := 1
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line++
			out = append(out, c)
		case c == '"':
			j := i + 1
			for ; j < len(data); j++ {
				if data[j] == '\\' {
					j++
					continue
				}
				if data[j] == '"' || data[j] == '\n' {
					break
				}
			}
			if j >= len(data) || data[j] != '"' {
				return nil, fmt.Errorf("line %d: unterminated string", line)
			}
			out = append(out, data[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				out = append(out, ' ')
				i++
			}
			i-- // the newline is handled by the loop
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			start := line
			out = append(out, ' ', ' ')
			i += 2
			for ; i < len(data) && (data[i] != '*' || i+1 >= len(data) || data[i+1] != '/'); i++ {
				if data[i] == '\n' {
					line++
					out = append(out, '\n')
				} else {
					out = append(out, ' ')
				}
			}
			if i >= len(data) {
				return nil, fmt.Errorf("line %d: unterminated /* comment", start)
			}
			out = append(out, ' ', ' ')
			i++
		case c == '}' || c == ']':
			// A trailing comma: the last byte before this one, past
			// white space, is a comma.
			k := len(out) - 1
			for k >= 0 && isSpace(out[k]) {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out[k] = ' '
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the file is empty")
	}
	return out, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
