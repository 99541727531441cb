package actionenv

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Level is an annotation's level, as the workflow command names it.
type Level string

// Annotation levels.
const (
	LevelNotice  Level = "notice"
	LevelWarning Level = "warning"
	LevelError   Level = "error"
)

// DefaultAnnotationLimit is how many annotations of each level GitHub shows
// for one step; more are accepted by the runner but not displayed.
const DefaultAnnotationLimit = 10

// Annotation places a notice, warning or error on a file's lines in the
// pull request's "Files changed" view. Every field is optional; File is
// relative to the repository root.
type Annotation struct {
	Title     string
	File      string
	Line      int
	EndLine   int
	Col       int
	EndColumn int
}

// Mask tells the runner to replace each non-empty value with *** in the
// log from now on. A multi-line value is also masked line by line, because
// the log is matched one line at a time. Call it first thing, before the
// value can be printed.
func (e *Env) Mask(values ...string) {
	var b strings.Builder
	for _, v := range values {
		if v == "" {
			continue
		}
		b.WriteString("::add-mask::" + escapeData(v) + "\n")
		if lines := splitLines(v); len(lines) > 1 {
			for _, l := range lines {
				if strings.TrimSpace(l) != "" {
					b.WriteString("::add-mask::" + escapeData(l) + "\n")
				}
			}
		}
	}
	e.write(b.String())
}

// Debug writes msg as a debug message (shown when step debug logging is
// on).
func (e *Env) Debug(msg string) { e.write("::debug::" + escapeData(msg) + "\n") }

// Info writes msg to the log as plain text. Lines that the runner could
// read as workflow commands ("::set-output::...", "##[...") are written
// between ::stop-commands:: and its random resume token, so untrusted text
// is shown and never obeyed.
func (e *Env) Info(msg string) {
	lines := splitLines(msg)
	risky := false
	for _, l := range lines {
		if strings.Contains(l, "::") || strings.Contains(l, "##[") {
			risky = true
			break
		}
	}
	body := strings.Join(lines, "\n") + "\n"
	if !risky {
		e.write(body)
		return
	}
	tok, err := e.newToken()
	if err != nil || strings.Contains(body, tok) {
		// No safe token: show the text with its colons escaped instead.
		e.write(strings.NewReplacer("::", ":\u200b:", "##[", "#\u200b#[").Replace(body))
		return
	}
	e.write("::stop-commands::" + tok + "\n" + body + "::" + tok + "::\n")
}

// Infof is Info with a message formatted from a constant format.
func (e *Env) Infof(format string, args ...any) { e.Info(fmt.Sprintf(format, args...)) }

// Warning writes msg as a warning annotation.
func (e *Env) Warning(msg string, a Annotation) { e.Annotate(LevelWarning, msg, a) }

// Error writes msg as an error annotation.
func (e *Env) Error(msg string, a Annotation) { e.Annotate(LevelError, msg, a) }

// SetAnnotationLimit sets how many annotations of each level are written as
// workflow commands (DefaultAnnotationLimit unless set; n <= 0 means no
// limit). Later ones are written as plain log lines and counted by
// SuppressedAnnotations.
func (e *Env) SetAnnotationLimit(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.annotationLimit = n
}

// SuppressedAnnotations returns how many annotations of each level went to
// the log as plain lines because the limit was reached; say so in the job
// summary.
func (e *Env) SuppressedAnnotations() map[Level]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[Level]int, len(e.suppressed))
	for k, v := range e.suppressed {
		if v > 0 {
			out[k] = v
		}
	}
	return out
}

// Annotate writes msg as an annotation of the given level (an unknown
// level is written as a warning). Past the per-level limit it is logged as
// a plain line instead.
func (e *Env) Annotate(level Level, msg string, a Annotation) {
	switch level {
	case LevelNotice, LevelWarning, LevelError:
	default:
		level = LevelWarning
	}
	e.mu.Lock()
	over := e.annotationLimit > 0 && e.annotated[level] >= e.annotationLimit
	if over {
		e.suppressed[level]++
	} else {
		e.annotated[level]++
	}
	e.mu.Unlock()
	if over {
		e.Info(string(level) + ": " + a.location() + msg)
		return
	}
	e.write("::" + string(level) + a.properties() + "::" + escapeData(msg) + "\n")
}

// Group starts a collapsible group in the log; call the returned function
// to end it.
func (e *Env) Group(title string) (end func()) {
	e.write("::group::" + escapeData(title) + "\n")
	return func() { e.write("::endgroup::\n") }
}

func (a Annotation) properties() string {
	var ps []string
	add := func(k, v string) { ps = append(ps, k+"="+escapeProperty(v)) }
	if a.File != "" {
		add("file", a.File)
	}
	if a.Line > 0 {
		add("line", strconv.Itoa(a.Line))
	}
	if a.EndLine > 0 {
		add("endLine", strconv.Itoa(a.EndLine))
	}
	if a.Col > 0 {
		add("col", strconv.Itoa(a.Col))
	}
	if a.EndColumn > 0 {
		add("endColumn", strconv.Itoa(a.EndColumn))
	}
	if a.Title != "" {
		add("title", a.Title)
	}
	if len(ps) == 0 {
		return ""
	}
	return " " + strings.Join(ps, ",")
}

// location is "file:line: " for the plain-line form of an annotation.
func (a Annotation) location() string {
	switch {
	case a.File != "" && a.Line > 0:
		return a.File + ":" + strconv.Itoa(a.Line) + ": "
	case a.File != "":
		return a.File + ": "
	}
	return ""
}

func (e *Env) write(s string) {
	if s == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, _ = io.WriteString(e.out, s)
}

// splitLines splits on every line ending the runner recognises (\r\n, \r,
// \n), so a bare \r cannot start a line of its own unseen.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
