package actionenv

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// InputError is an input whose value cannot be used. Its message names the
// input as the workflow spells it.
type InputError struct {
	Name  string // the input's name, e.g. "fail-on"
	Value string // the value received (inputs are not secrets; see SecretInput)
	Want  string // what was expected
}

func (e *InputError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("input %q: %s", e.Name, e.Want)
	}
	return fmt.Sprintf("input %q: %q is not valid: %s", e.Name, e.Value, e.Want)
}

// inputVars returns the variables GitHub may use for the input: the
// runner's form (INPUT_ + upper-cased name, spaces to underscores, hyphens
// kept: INPUT_FAIL-ON) first, then the form with hyphens as underscores
// (INPUT_FAIL_ON), which shells and docker --env can set.
func inputVars(name string) []string {
	v := "INPUT_" + strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(name), " ", "_"))
	u := strings.ReplaceAll(v, "-", "_")
	if u == v {
		return []string{v}
	}
	return []string{v, u}
}

// Input returns the input's value with surrounding white space trimmed, or
// "" when it is unset or empty. The first non-empty of INPUT_<NAME> (hyphens
// kept) and INPUT_<NAME> with hyphens as underscores wins.
func (e *Env) Input(name string) string {
	for _, v := range inputVars(name) {
		if s := strings.TrimSpace(e.getenv(v)); s != "" {
			return s
		}
	}
	return ""
}

// RequiredInput is Input that fails when the input is empty.
func (e *Env) RequiredInput(name string) (string, error) {
	s := e.Input(name)
	if s == "" {
		return "", &InputError{Name: name, Want: "required and not set"}
	}
	return s, nil
}

// SecretInput is Input for a secret (a token): a non-empty value is masked
// in the log before it is returned. Call it before anything is logged.
func (e *Env) SecretInput(name string) string {
	s := e.Input(name)
	e.Mask(s)
	return s
}

// Boolean words, as people type them in a workflow: YAML 1.1's and the
// shell's as well as YAML 1.2's. Compared case-insensitively.
var (
	trueWords  = []string{"true", "yes", "on", "1"}
	falseWords = []string{"false", "no", "off", "0"}
)

// ParseBool reads a boolean word: true, yes, on or 1, or false, no, off or
// 0, in any case. ok is false for anything else.
func ParseBool(s string) (v, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case slices.Contains(trueWords, s):
		return true, true
	case slices.Contains(falseWords, s):
		return false, true
	}
	return false, false
}

// InputBool parses a boolean input (ParseBool); empty gives def.
func (e *Env) InputBool(name string, def bool) (bool, error) {
	s := e.Input(name)
	if s == "" {
		return def, nil
	}
	if v, ok := ParseBool(s); ok {
		return v, nil
	}
	return false, &InputError{Name: name, Value: s, Want: "use true or false (yes/no, on/off and 1/0 are accepted too, in any case)"}
}

// InputInt parses a decimal integer input; empty gives def.
func (e *Env) InputInt(name string, def int) (int, error) {
	s := e.Input(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, &InputError{Name: name, Value: s, Want: "use a whole number"}
	}
	return n, nil
}

// InputDuration parses a duration input in Go's syntax ("90s", "2m30s") or
// as a whole number of seconds ("30"); empty gives def. Negative durations
// are refused.
func (e *Env) InputDuration(name string, def time.Duration) (time.Duration, error) {
	s := e.Input(name)
	if s == "" {
		return def, nil
	}
	var d time.Duration
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > int64(time.Duration(1<<63-1)/time.Second) {
			return 0, &InputError{Name: name, Value: s, Want: "the duration is too long"}
		}
		d = time.Duration(n) * time.Second
	} else {
		d, err = time.ParseDuration(s)
		if err != nil {
			return 0, &InputError{Name: name, Value: s, Want: `use a duration such as "30s" or "2m", or a number of seconds`}
		}
	}
	if d < 0 {
		return 0, &InputError{Name: name, Value: s, Want: "the duration must not be negative"}
	}
	return d, nil
}

// InputLines splits a multi-line input into its non-empty lines, each
// trimmed.
func (e *Env) InputLines(name string) []string {
	return splitList(e.Input(name), func(r rune) bool { return r == '\n' || r == '\r' })
}

// InputList splits an input on newlines and commas into its non-empty
// items, each trimmed ("a, b" and a YAML block of lines both work).
func (e *Env) InputList(name string) []string {
	return splitList(e.Input(name), func(r rune) bool { return r == '\n' || r == '\r' || r == ',' })
}

func splitList(s string, sep func(rune) bool) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, sep) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// InputChoice returns the input when it is one of allowed (in any case;
// the value returned is spelled as in allowed), def when it is empty, and
// an error listing the choices otherwise.
func (e *Env) InputChoice(name, def string, allowed ...string) (string, error) {
	return e.InputChoiceOrBool(name, def, "", "", allowed...)
}

// InputChoiceOrBool is InputChoice for a choice with an obvious yes and
// no (comment: always and never): a boolean word (ParseBool) gives onTrue
// or onFalse. Either may be "" when only one side has an obvious meaning;
// the word for that side is then refused like any unknown value.
func (e *Env) InputChoiceOrBool(name, def, onTrue, onFalse string, allowed ...string) (string, error) {
	s := e.Input(name)
	if s == "" {
		return def, nil
	}
	for _, a := range allowed {
		if strings.EqualFold(s, a) {
			return a, nil
		}
	}
	if v, ok := ParseBool(s); ok {
		if v && onTrue != "" {
			return onTrue, nil
		}
		if !v && onFalse != "" {
			return onFalse, nil
		}
	}
	return "", &InputError{Name: name, Value: s, Want: "use " + choiceList(allowed, onTrue, onFalse)}
}

// choiceList says which values a choice input takes, and what the boolean
// words stand for: "one of always, on-change, never (true means always,
// false means never)".
func choiceList(allowed []string, onTrue, onFalse string) string {
	list := "one of " + strings.Join(allowed, ", ")
	var words []string
	if onTrue != "" {
		words = append(words, "true means "+onTrue)
	}
	if onFalse != "" {
		words = append(words, "false means "+onFalse)
	}
	if len(words) > 0 {
		list += " (" + strings.Join(words, ", ") + ")"
	}
	return list
}
