package actionenv

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// InputSpec is one input as action.yml declares it.
type InputSpec struct {
	Name string
	// Default is what an empty or unset value means: action.yml declares
	// the same default, so a wrapper that passes no value gets the same
	// behaviour. A default that is a workflow expression ("${{ ... }}") is
	// evaluated by the runner, never by us: for us it is "".
	Default string
}

// Inputs reads the inputs of a declared list by name, each with its
// default, and collects what is malformed, so that one run reports every
// bad input at once. Reading an undeclared input is a programming error
// and panics. Its zero value is not usable: use (*Env).Inputs.
type Inputs struct {
	env   *Env
	specs []InputSpec
	errs  []error
}

// Inputs is a reader of the declared inputs specs.
func (e *Env) Inputs(specs []InputSpec) *Inputs {
	return &Inputs{env: e, specs: specs}
}

func (r *Inputs) spec(name string) InputSpec {
	for _, in := range r.specs {
		if in.Name == name {
			return in
		}
	}
	panic("actionenv: input " + name + " is not declared")
}

// Fail records a malformed input found by the caller.
func (r *Inputs) Fail(err error) { r.errs = append(r.errs, err) }

// Err is every malformed input read so far, joined; nil when none.
func (r *Inputs) Err() error { return errors.Join(r.errs...) }

// String is the input's value, else its default.
func (r *Inputs) String(name string) string {
	in := r.spec(name)
	if v := r.env.Input(name); v != "" {
		return v
	}
	if strings.HasPrefix(in.Default, "${{") {
		return ""
	}
	return in.Default
}

// Secret is a secret input (SecretInput: masked before it is returned).
func (r *Inputs) Secret(name string) string {
	r.spec(name)
	return r.env.SecretInput(name)
}

// Bool is a boolean input (InputBool).
func (r *Inputs) Bool(name string) bool {
	def, _ := strconv.ParseBool(r.spec(name).Default)
	v, err := r.env.InputBool(name, def)
	if err != nil {
		r.Fail(err)
	}
	return v
}

// IntBetween is an integer input (InputInt) from lo to hi.
func (r *Inputs) IntBetween(name string, lo, hi int) int {
	def, _ := strconv.Atoi(r.spec(name).Default)
	v, err := r.env.InputInt(name, def)
	switch {
	case err != nil:
		r.Fail(err)
	case v < lo || v > hi:
		r.Fail(&InputError{Name: name, Value: strconv.Itoa(v), Want: fmt.Sprintf("between %d and %d", lo, hi)})
	}
	return v
}

// Duration is a duration input (InputDuration).
func (r *Inputs) Duration(name string) time.Duration {
	def, _ := time.ParseDuration(r.spec(name).Default)
	v, err := r.env.InputDuration(name, def)
	if err != nil {
		r.Fail(err)
	}
	return v
}

// PositiveDuration is Duration for an input that is empty (its
// default) or positive: a zero given is malformed, and want says what to
// give instead.
func (r *Inputs) PositiveDuration(name, want string) time.Duration {
	def, _ := time.ParseDuration(r.spec(name).Default)
	v, err := r.env.InputDuration(name, def)
	switch {
	case err != nil:
		r.Fail(err)
	case v == 0 && r.env.Input(name) != "":
		r.Fail(&InputError{Name: name, Value: r.env.Input(name), Want: want})
	}
	return v
}

// Choice is one of allowed (InputChoice).
func (r *Inputs) Choice(name string, allowed ...string) string {
	return r.ChoiceOrBool(name, "", "", allowed...)
}

// ChoiceOrBool is Choice for an input whose choices include an obvious
// yes and no: a boolean word means onTrue or onFalse (InputChoiceOrBool).
func (r *Inputs) ChoiceOrBool(name, onTrue, onFalse string, allowed ...string) string {
	v, err := r.env.InputChoiceOrBool(name, r.spec(name).Default, onTrue, onFalse, allowed...)
	if err != nil {
		r.Fail(err)
	}
	return v
}

// Lines is a multi-line input's non-empty lines (InputLines).
func (r *Inputs) Lines(name string) []string {
	r.spec(name)
	return r.env.InputLines(name)
}

// List is a list input's items (InputList).
func (r *Inputs) List(name string) []string {
	r.spec(name)
	return r.env.InputList(name)
}

// VariableNames is a list of environment variable names
// (InputVariableNames).
func (r *Inputs) VariableNames(name string) []string {
	r.spec(name)
	v, err := r.env.InputVariableNames(name)
	if err != nil {
		r.Fail(err)
	}
	return v
}
