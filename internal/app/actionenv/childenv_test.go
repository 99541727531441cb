package actionenv

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestScrubEnviron(t *testing.T) {
	const token = "ghs_ScrubTestToken0123456789"
	// What a runner gives a composite action's step, and what a job adds.
	environ := []string{
		"PATH=/usr/bin:/bin",
		"HOME=/home/runner",
		"GITHUB_TOKEN=" + token,
		"GITHUB_REPOSITORY=acme/weather-mcp",
		"GITHUB_WORKSPACE=/work",
		"ACTIONS_RUNTIME_TOKEN=eyJ0eXAi.runtime",
		"ACTIONS_RUNTIME_URL=https://pipelines.example/",
		"ACTIONS_ID_TOKEN_REQUEST_TOKEN=eyJ0eXAi.oidc",
		"ACTIONS_ID_TOKEN_REQUEST_URL=https://oidc.example/?api-version=2.0",
		"ACTIONS_CACHE_URL=https://cache.example/",
		"ACTIONS_RESULTS_URL=https://results.example/",
		"ACTIONS_STEP_DEBUG=true",
		"INPUT_GITHUB-TOKEN=" + token,
		"INPUT_COMMAND=node server.js",
		"input_lower=x",
		"GH_TOKEN=" + token,
		"DEPLOY_URL=https://x-access-token:" + token + "@github.example/",
		"NPM_TOKEN=npm_own",
		"EMPTY=",
		"NOEQUALS",
	}
	kept := func(names ...string) []string {
		var out []string
		for _, kv := range environ {
			name, _, _ := strings.Cut(kv, "=")
			for _, n := range names {
				if n == name {
					out = append(out, kv)
				}
			}
		}
		return out
	}
	base := []string{"PATH", "HOME", "GITHUB_REPOSITORY", "GITHUB_WORKSPACE", "ACTIONS_STEP_DEBUG", "NPM_TOKEN", "EMPTY", "NOEQUALS"}
	for _, tc := range []struct {
		name  string
		scrub Scrub
		in    []string // nil: environ
		want  []string
	}{
		{
			name: "zero scrub: credentials and inputs",
			want: kept(append(base, "GH_TOKEN", "DEPLOY_URL")...),
		},
		{
			name:  "the token under any name",
			scrub: Scrub{Secrets: []string{token}},
			want:  kept(base...),
		},
		{
			name:  "empty secrets are ignored",
			scrub: Scrub{Secrets: []string{""}},
			want:  kept(append(base, "GH_TOKEN", "DEPLOY_URL")...),
		},
		{
			name:  "passed on purpose, the inputs never",
			scrub: Scrub{Secrets: []string{token}, Pass: []string{"GITHUB_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL", "NOT_SET", "INPUT_COMMAND", "input_lower"}},
			want:  kept(append(base, "GITHUB_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL")...),
		},
		{
			name:  "names are exact",
			scrub: Scrub{Pass: []string{"github_token", "ACTIONS_RUNTIME"}},
			want:  kept(append(base, "GH_TOKEN", "DEPLOY_URL")...),
		},
		{
			name: "an empty environment stays empty, not nil",
			in:   []string{},
			want: []string{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if in == nil {
				in = environ
			}
			got := tc.scrub.Environ(in)
			if got == nil {
				t.Fatal("Environ returned nil: an exec.Cmd would inherit the whole environment")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Environ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScrubGetenv(t *testing.T) {
	vars := map[string]string{"GITHUB_TOKEN": "ghs_x", "API_KEY": "k", "COPY": "ghs_x", "ACTIONS_CACHE_URL": "https://cache.example/"}
	get := Scrub{Secrets: []string{"ghs_x"}, Pass: []string{"ACTIONS_CACHE_URL"}}.Getenv(func(k string) string { return vars[k] })
	tabletest.Map(t, "Getenv", get, map[string]string{"GITHUB_TOKEN": "", "COPY": "", "API_KEY": "k", "ACTIONS_CACHE_URL": "https://cache.example/", "UNSET": ""})
}

func TestInputVariableNames(t *testing.T) {
	e := New(mapEnv(map[string]string{
		"INPUT_PASS-ENV": "GITHUB_TOKEN, ACTIONS_ID_TOKEN_REQUEST_URL\n_private\n\nx1",
		"INPUT_BAD":      "GOOD, 1BAD",
		"INPUT_SPACE":    "A B",
		"INPUT_HYPHEN":   "INPUT_GITHUB-TOKEN",
	}), nil)
	got, err := e.InputVariableNames("pass-env")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"GITHUB_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL", "_private", "x1"}, got); diff != "" {
		t.Errorf("InputVariableNames (-want +got):\n%s", diff)
	}
	if got, err := e.InputVariableNames("absent"); err != nil || got != nil {
		t.Errorf("InputVariableNames(absent) = %q, %v", got, err)
	}
	for _, name := range []string{"bad", "space", "hyphen"} {
		_, err := e.InputVariableNames(name)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Name != name || !strings.Contains(err.Error(), "environment variable names") {
			t.Errorf("InputVariableNames(%s) error = %v", name, err)
		}
	}
}

func TestScrubEnvironOfNothingIsNotNil(t *testing.T) {
	if got := (Scrub{}).Environ(nil); got == nil || len(got) != 0 {
		t.Errorf("Environ(nil) = %#v, want an empty, non-nil slice", got)
	}
}
