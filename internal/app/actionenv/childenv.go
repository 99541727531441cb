package actionenv

import (
	"slices"
	"strings"
)

// RunnerCredentials are the variables of a job's environment that let a
// program act for the workflow: the workflow's token as a job may export
// it, the Actions runtime's own token and the URLs of the services it opens
// (cache, artifacts and results), and the pair that mints OpenID Connect
// tokens for cloud logins. The pull request's code gets none of them.
var RunnerCredentials = []string{
	"GITHUB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN",
	"ACTIONS_RUNTIME_URL",
	"ACTIONS_ID_TOKEN_REQUEST_TOKEN",
	"ACTIONS_ID_TOKEN_REQUEST_URL",
	"ACTIONS_CACHE_URL",
	"ACTIONS_RESULTS_URL",
}

// A Scrub says which variables of the action's environment the commands it
// starts for the pull request's code (the build, the server) do not
// receive: RunnerCredentials, the action's inputs (INPUT_*, among them the
// github-token input) and any variable whose value holds one of Secrets,
// under whatever name. Pass names variables passed through on purpose
// even so, but for the inputs, which are never passed. The zero Scrub
// withholds the credentials and the inputs.
type Scrub struct {
	// Secrets are values no variable may carry to the child (the
	// github-token input's token); empty strings are ignored.
	Secrets []string
	// Pass are variable names (exact, case-sensitive) kept whatever they
	// hold, INPUT_* aside: the pass-env input.
	Pass []string
}

// Withheld reports whether the variable name=value stays out of the
// child's environment.
func (s Scrub) Withheld(name, value string) bool {
	if strings.HasPrefix(strings.ToUpper(name), "INPUT_") {
		return true // the action's own, whatever Pass says
	}
	if slices.Contains(s.Pass, name) {
		return false
	}
	if slices.Contains(RunnerCredentials, name) {
		return true
	}
	for _, secret := range s.Secrets {
		if secret != "" && strings.Contains(value, secret) {
			return true
		}
	}
	return false
}

// Environ returns environ ("NAME=value" entries, as os.Environ gives them)
// without the withheld variables, in the same order. The result is never
// nil, so that an exec.Cmd given it never falls back to inheriting the
// whole environment.
func (s Scrub) Environ(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !s.Withheld(name, value) {
			out = append(out, kv)
		}
	}
	return out
}

// Getenv wraps getenv so that a withheld variable reads as unset: what
// the pull request's configuration expands (${VAR} in a server's headers
// or probe arguments) is held to the same rule as the child's environment.
func (s Scrub) Getenv(getenv func(string) string) func(string) string {
	return func(name string) string {
		v := getenv(name)
		if s.Withheld(name, v) {
			return ""
		}
		return v
	}
}

// InputVariableNames reads an input that lists environment variable names
// (InputList: comma- or line-separated). A name must be what a shell can
// export: letters, digits and underscores, not starting with a digit; the
// first that is not fails the input.
func (e *Env) InputVariableNames(name string) ([]string, error) {
	names := e.InputList(name)
	for _, n := range names {
		if !validVariableName(n) {
			return nil, &InputError{Name: name, Value: n, Want: "give environment variable names (letters, digits and _, not starting with a digit), separated by commas or newlines"}
		}
	}
	return names, nil
}

func validVariableName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
