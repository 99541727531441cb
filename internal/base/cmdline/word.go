package cmdline

import "strings"

// Word is w as one word for /bin/sh, quoted only when the shell would
// read it otherwise, so that the common command reads plainly.
func Word(w string) string {
	if w == "" {
		return Quote(w)
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@%+,", r)) {
			return Quote(w)
		}
	}
	return w
}

// Join is a command line for /bin/sh whose words are words (Word).
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Word(w)
	}
	return strings.Join(q, " ")
}
