package clientconfig

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// InputVariable is the environment variable that stands in for VS Code's
// prompt for the input id: MCP_SURFACE_INPUT_ and the id upper-cased,
// every byte other than a letter or digit turned into _ ("api-key" is
// MCP_SURFACE_INPUT_API_KEY).
func InputVariable(id string) string {
	b := []byte("MCP_SURFACE_INPUT_")
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z':
			b = append(b, c-'a'+'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b = append(b, c)
		default:
			b = append(b, '_')
		}
	}
	return string(b)
}

// expander fills one format's placeholders in the values of one entry. It
// collects the values that came from the environment (secrets) and the
// variables that were unset or empty (missing).
type expander struct {
	ctx     context.Context // bounds the files an entry names (envFile)
	format  Format
	root    string // the workspace folder
	getenv  func(string) string
	inputs  map[string]bool // VS Code: the ids "inputs" declares
	secrets []string
	missing []string
}

func (x *expander) env(name string) (string, bool) {
	v := x.getenv(name)
	if v == "" {
		if !slices.Contains(x.missing, name) {
			x.missing = append(x.missing, name)
		}
		return "", false
	}
	// The home directory is no secret ($HOME, ${env:HOME}): masked, it
	// would hide every path under it (every "/root" of a CI log).
	if !slices.Contains(x.secrets, v) && !homeVariables[name] {
		x.secrets = append(x.secrets, v)
	}
	return v, true
}

// homeVariables name the home directory.
var homeVariables = map[string]bool{"HOME": true, "USERPROFILE": true}

// expand fills the placeholders of s; key names the member for errors.
func (x *expander) expand(key, s string) (string, error) {
	switch x.format {
	case FormatClaudeDesktop:
		return s, nil
	case FormatGemini:
		return x.expandGemini(key, s)
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("%s: unterminated ${ placeholder", key)
		}
		name := s[i+2 : i+j]
		v, err := x.variable(key, name)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// variable is the value of ${name} in the VS Code, Cursor and Claude Code
// syntaxes.
func (x *expander) variable(key, name string) (string, error) {
	if x.format == FormatClaudeCode {
		v, def, hasDef := strings.Cut(name, ":-")
		if !isEnvName(v) {
			return "", fmt.Errorf("%s: ${%s} is not a variable Claude Code expands (use ${NAME} or ${NAME:-default})", key, name)
		}
		if v == "CLAUDE_PROJECT_DIR" && x.getenv(v) == "" {
			return x.root, nil
		}
		if hasDef && x.getenv(v) == "" {
			return def, nil
		}
		val, _ := x.env(v)
		return val, nil
	}
	switch name {
	case "workspaceFolder":
		return x.root, nil
	case "workspaceFolderBasename":
		return filepath.Base(x.root), nil
	case "userHome":
		// The home directory is no secret: it is not redacted.
		if v := x.getenv("HOME"); v != "" {
			return v, nil
		}
		x.env("HOME")
		return "", nil
	case "pathSeparator", "/":
		return string(filepath.Separator), nil
	}
	if v, ok := strings.CutPrefix(name, "env:"); ok && isEnvName(v) {
		val, _ := x.env(v)
		return val, nil
	}
	if id, ok := strings.CutPrefix(name, "input:"); ok && x.format == FormatVSCode {
		if !x.inputs[id] {
			return "", fmt.Errorf("%s: ${input:%s} names no entry of \"inputs\"", key, id)
		}
		val, _ := x.env(InputVariable(id))
		return val, nil
	}
	return "", fmt.Errorf("%s: ${%s} is not a variable %s fills here (supported: ${env:NAME}, ${workspaceFolder}, ${userHome}%s)",
		key, name, x.format.Client(), map[bool]string{true: ", ${input:ID}", false: ""}[x.format == FormatVSCode])
}

// expandGemini fills $NAME and ${NAME}; a $ not followed by a name is kept.
func (x *expander) expandGemini(key, s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		var name string
		end := i + 1
		if s[i+1] == '{' {
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return "", fmt.Errorf("%s: unterminated ${ placeholder", key)
			}
			name, end = s[i+2:i+j], i+j+1
			if !isEnvName(name) {
				return "", fmt.Errorf("%s: ${%s} is not a variable name", key, name)
			}
		} else {
			for end < len(s) && isNameByte(s[end], end == i+1) {
				end++
			}
			name = s[i+1 : end]
			if name == "" {
				b.WriteByte('$')
				continue
			}
		}
		v, _ := x.env(name)
		b.WriteString(v)
		i = end - 1
	}
	return b.String(), nil
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i], i == 0) {
			return false
		}
	}
	return true
}
