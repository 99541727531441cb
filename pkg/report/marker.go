package report

import "strings"

// MarkerPrefix starts the hidden marker on the first line of our comment.
// Server text can never produce it: Markdown escapes "<".
const MarkerPrefix = "<!-- mcp-surface:report id="

// Marker is the hidden first line of the comment for a key; a publisher
// finds its sticky comment by it.
func Marker(key string) string { return MarkerPrefix + markerKey(key) + " -->" }

// MarkerKey is the key of a report's comment: Options.CommentKey, else the
// sorted server names joined by "+", else "default".
func MarkerKey(r *Report, o Options) string {
	if o.CommentKey != "" {
		return markerKey(o.CommentKey)
	}
	var names []string
	for _, s := range r.sections() {
		if s.Server != "" {
			names = append(names, s.Server)
		}
	}
	if len(names) == 0 {
		return "default"
	}
	return markerKey(strings.Join(names, "+"))
}

// markerKey keeps a key to characters that cannot end an HTML comment or
// the line: letters, digits and . _ / + = , -; anything else becomes _.
func markerKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._/+=,", r):
			b.WriteRune(r)
		case r == '-':
			// "--" may not appear inside an HTML comment.
			if strings.HasSuffix(b.String(), "-") {
				b.WriteByte('_')
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	if b.Len() == 0 {
		return "default"
	}
	return strings.TrimSuffix(b.String(), "-")
}

// RenderUnchanged is the comment body for a pull request whose surface no
// longer differs from its base: a publisher updates its existing comment
// to it (rather than deleting it) when a change was reverted. The marker
// stays the first line, so later runs still find the comment.
func RenderUnchanged(r *Report, o Options) []byte {
	line := "✅ **surface unchanged**"
	if o.HeadSHA != "" {
		line += " at " + Code(shortSHA(o.HeadSHA), 20)
	}
	if u := safeURL(o.RunURL); u != "" {
		line += " · [run](" + u + ")"
	}
	return []byte(Marker(MarkerKey(r, o)) + "\n" + line + "\n")
}
