package actionenv

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
)

// DefaultAPIURL is the REST API of github.com, used when GITHUB_API_URL is
// unset (GitHub Enterprise Server sets it to https://HOST/api/v3).
const DefaultAPIURL = "https://api.github.com"

// ErrNotSet is wrapped by every error caused by a missing runner variable
// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, ...): usually the
// program is not running inside a GitHub Actions step.
var ErrNotSet = errors.New("not set (not running in a GitHub Actions step?)")

// Env is the runner environment of one step. Its methods are safe for
// concurrent use; workflow commands are written whole, one call at a time.
type Env struct {
	getenv func(string) string

	mu  sync.Mutex
	out io.Writer // workflow commands and log lines

	fileMu sync.Mutex // serialises appends to GITHUB_OUTPUT and GITHUB_STEP_SUMMARY

	// newToken returns a fresh random token (output delimiters,
	// stop-commands tokens); replaced in tests.
	newToken func() (string, error)

	annotationLimit int
	annotated       map[Level]int
	suppressed      map[Level]int
}

// New returns the environment read through getenv, writing workflow
// commands and log lines to out (the step's stdout). A nil getenv reads as
// an empty environment; a nil out discards.
func New(getenv func(string) string, out io.Writer) *Env {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if out == nil {
		out = io.Discard
	}
	return &Env{
		getenv:          getenv,
		out:             out,
		newToken:        randomToken,
		annotationLimit: DefaultAnnotationLimit,
		annotated:       map[Level]int{},
		suppressed:      map[Level]int{},
	}
}

// APIURL is GITHUB_API_URL, or DefaultAPIURL when it is unset. It is
// checked to be an absolute http(s) URL.
func (e *Env) APIURL() (string, error) {
	s := strings.TrimSpace(e.getenv("GITHUB_API_URL"))
	if s == "" {
		return DefaultAPIURL, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("GITHUB_API_URL %q is not an absolute http(s) URL", s)
	}
	return s, nil
}

// SplitRepository splits "owner/name" and checks both parts use only the
// characters GitHub allows, so they are safe in URL paths.
func SplitRepository(full string) (owner, name string, err error) {
	owner, name, ok := strings.Cut(full, "/")
	if !ok || !validOwner(owner) || !validRepoName(name) {
		return "", "", fmt.Errorf("repository %q is not of the form owner/name", full)
	}
	return owner, name, nil
}

func validOwner(s string) bool { return validWord(s, 100, "") }

func validRepoName(s string) bool { return s != "." && s != ".." && validWord(s, 100, ".") }

// validWord reports whether s is 1 to maxLen ASCII letters, digits, '-',
// '_' and the characters of extra.
func validWord(s string, maxLen int, extra string) bool {
	if s == "" || len(s) > maxLen {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || strings.ContainsRune(extra, r)) {
			return false
		}
	}
	return true
}

// Context is the run's default variables, as documented for GitHub
// Actions. Empty fields were not set.
type Context struct {
	EventName  string // GITHUB_EVENT_NAME
	EventPath  string // GITHUB_EVENT_PATH
	Repository string // GITHUB_REPOSITORY, "owner/name"
	Owner      string // from Repository
	Repo       string // from Repository
	SHA        string // GITHUB_SHA (the merge commit on pull_request)
	Ref        string // GITHUB_REF (refs/pull/N/merge on pull_request)
	HeadRef    string // GITHUB_HEAD_REF (pull requests only)
	BaseRef    string // GITHUB_BASE_REF (pull requests only)
	Workspace  string // GITHUB_WORKSPACE
	APIURL     string // GITHUB_API_URL or DefaultAPIURL
	ServerURL  string // GITHUB_SERVER_URL
	RunID      string // GITHUB_RUN_ID
	RunAttempt string // GITHUB_RUN_ATTEMPT
	Job        string // GITHUB_JOB
	Actor      string // GITHUB_ACTOR
	Workflow   string // GITHUB_WORKFLOW
}

// Context collects the default variables. It fails only when a variable
// that is set is malformed (GITHUB_REPOSITORY, GITHUB_API_URL).
func (e *Env) Context() (*Context, error) {
	c := &Context{
		EventName:  e.getenv("GITHUB_EVENT_NAME"),
		EventPath:  e.getenv("GITHUB_EVENT_PATH"),
		Repository: e.getenv("GITHUB_REPOSITORY"),
		SHA:        e.getenv("GITHUB_SHA"),
		Ref:        e.getenv("GITHUB_REF"),
		HeadRef:    e.getenv("GITHUB_HEAD_REF"),
		BaseRef:    e.getenv("GITHUB_BASE_REF"),
		Workspace:  e.getenv("GITHUB_WORKSPACE"),
		ServerURL:  e.getenv("GITHUB_SERVER_URL"),
		RunID:      e.getenv("GITHUB_RUN_ID"),
		RunAttempt: e.getenv("GITHUB_RUN_ATTEMPT"),
		Job:        e.getenv("GITHUB_JOB"),
		Actor:      e.getenv("GITHUB_ACTOR"),
		Workflow:   e.getenv("GITHUB_WORKFLOW"),
	}
	if c.Repository != "" {
		o, n, err := SplitRepository(c.Repository)
		if err != nil {
			return nil, fmt.Errorf("GITHUB_REPOSITORY: %w", err)
		}
		c.Owner, c.Repo = o, n
	}
	api, err := e.APIURL()
	if err != nil {
		return nil, err
	}
	c.APIURL = api
	return c, nil
}

func randomToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
