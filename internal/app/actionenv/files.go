package actionenv

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxSummaryBytes is GitHub's limit on one step's job summary: a larger
// GITHUB_STEP_SUMMARY file is not shown at all.
const MaxSummaryBytes = 1 << 20

// ErrDelimiterCollision is returned by SetOutput when the value (or name)
// contains the random delimiter chosen for it. With 128 random bits this
// only happens to a value crafted by someone who saw the delimiter.
var ErrDelimiterCollision = errors.New("value contains the output delimiter")

// summaryTruncatedNote ends a summary cut to fit MaxSummaryBytes.
const summaryTruncatedNote = "\n\n> [!WARNING]\n> This summary was cut to fit GitHub's 1 MiB job summary limit. The full report is in the job log and the JSON report.\n"

// SetOutput sets the step output name to value through the GITHUB_OUTPUT
// file, as "name<<DELIMITER\nvalue\nDELIMITER\n" with a fresh random
// delimiter: a value with newlines or with text that looks like a
// delimiter cannot start a second output. The name must be a plain
// identifier (letters, digits, '-', '_').
func (e *Env) SetOutput(name, value string) error {
	if !validOutputName(name) {
		return fmt.Errorf("set output %q: the name must be letters, digits, '-' or '_'", name)
	}
	path := e.getenv("GITHUB_OUTPUT")
	if path == "" {
		return fmt.Errorf("set output %q: GITHUB_OUTPUT %w", name, ErrNotSet)
	}
	tok, err := e.newToken()
	if err != nil {
		return fmt.Errorf("set output %q: %w", name, err)
	}
	delim := "ghadelimiter_" + tok
	if strings.Contains(value, delim) || strings.Contains(name, delim) {
		return fmt.Errorf("set output %q: %w", name, ErrDelimiterCollision)
	}
	rec := name + "<<" + delim + "\n" + value + "\n" + delim + "\n"
	e.fileMu.Lock()
	defer e.fileMu.Unlock()
	if err := appendFile(path, rec); err != nil {
		return fmt.Errorf("set output %q: %w", name, err)
	}
	return nil
}

func validOutputName(s string) bool { return validWord(s, 200, "") }

// AppendSummary appends markdown to the step's job summary
// (GITHUB_STEP_SUMMARY). The file is kept within MaxSummaryBytes: when
// markdown does not fit in what is left, it is cut (at a line break when
// one is near, always at a UTF-8 boundary, closing an open code fence) and
// a note saying so is added; truncated reports that. An error is returned
// when GITHUB_STEP_SUMMARY is unset, the file cannot be written, or not
// even the note fits.
func (e *Env) AppendSummary(markdown string) (truncated bool, err error) {
	path := e.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return false, fmt.Errorf("job summary: GITHUB_STEP_SUMMARY %w", ErrNotSet)
	}
	e.fileMu.Lock()
	defer e.fileMu.Unlock()
	var used int64
	if fi, err := os.Stat(path); err == nil {
		used = fi.Size()
	} else if !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("job summary: %w", err)
	}
	room := MaxSummaryBytes - used
	if int64(len(markdown)) > room {
		cut, ok := truncateSummary(markdown, room)
		if !ok {
			return true, fmt.Errorf("job summary: the step's summary already holds %d bytes; no room for more within GitHub's 1 MiB limit", used)
		}
		markdown, truncated = cut, true
	}
	if err := appendFile(path, markdown); err != nil {
		return truncated, fmt.Errorf("job summary: %w", err)
	}
	return truncated, nil
}

// truncateSummary cuts s so that the result, with any fence closer and the
// note, is at most room bytes.
func truncateSummary(s string, room int64) (string, bool) {
	const fenceCloser = "\n```\n"
	budget := room - int64(len(summaryTruncatedNote)) - int64(len(fenceCloser))
	if budget < 0 {
		return "", false
	}
	n := int(min(budget, int64(len(s))))
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	kept := s[:n]
	// Prefer a line break in the last 4 KiB, so a table row or a link is
	// not cut in half.
	if i := strings.LastIndexByte(kept, '\n'); i >= 0 && len(kept)-i < 4096 {
		kept = kept[:i+1]
	}
	if strings.Count(kept, "```")%2 == 1 {
		kept += fenceCloser
	}
	return kept + summaryTruncatedNote, true
}

// appendFile writes s to the end of the file at path in one write. The
// runner creates these files; creating a missing one keeps local runs and
// tests simple.
func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(s)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}
