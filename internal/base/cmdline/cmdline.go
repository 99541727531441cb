package cmdline

import (
	"errors"
	"fmt"
	"strings"
)

// Quote quotes s as one word for /bin/sh.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Split splits a command line into argv with the quoting rules of a
// POSIX shell: words are separated by blanks and newlines; 'single quotes'
// keep everything; "double quotes" keep everything but \" \\ \$ \` and
// backslash-newline; outside quotes a backslash keeps the next character.
// Characters a shell would interpret (| & ; < > ( ) $ and `) are refused
// outside quotes, as are $ and ` inside double quotes, and so is a leading
// NAME=value; the errors say to run the command with a shell (sh -c)
// instead, or to set the variable in the environment.
func Split(s string) ([]string, error) {
	var (
		args    []string
		cur     strings.Builder
		inWord  bool
		quote   rune // 0, '\'' or '"'
		escaped bool
	)
	runes := []rune(s)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case escaped:
			escaped = false
			if r != '\n' {
				cur.WriteRune(r)
				inWord = true
			}
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i+1 < len(runes) && strings.ContainsRune("\"\\$`\n", runes[i+1]):
				i++
				if runes[i] != '\n' {
					cur.WriteRune(runes[i])
				}
			case r == '$' || r == '`':
				return nil, fmt.Errorf("%q inside double quotes would be expanded by a shell; single-quote it, or set shell: true", string(r))
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped = true
		case r == '\'' || r == '"':
			quote = r
			inWord = true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune("|&;<>()$`", r):
			return nil, fmt.Errorf("%q is shell syntax, and the command runs without a shell: quote it, or set shell: true to run the command with sh -c", string(r))
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if escaped {
		return nil, errors.New("the command ends with a backslash")
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, errors.New("empty command")
	}
	if name, _, ok := strings.Cut(args[0], "="); ok && isEnvName(name) {
		return nil, fmt.Errorf("%q sets a variable, which needs a shell: set it in the step's env: instead", args[0])
	}
	return args, nil
}

// isEnvName reports whether s is a shell variable name.
func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
