// Package githubtest is a stand-in for the parts of the GitHub REST API
// that publishing uses, on loopback, for tests: issue comments (listed a
// page at a time, created, edited), reviews and their comments, pull
// requests (one, the open ones, those of a commit), issues (listed,
// filed, edited, closed) and SARIF uploads. It
// answers in the API's own JSON shapes, so go-github reads it as it reads
// GitHub, keeps what was written (comments, reviews, uploads) and records
// every request.
//
// The tests of internal/app/github and the end-to-end tests of the action in
// internal/app/cli share it. It does not import internal/app/github, so that
// package's own tests can use it.
package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Repository is the base repository of every pull request the server
// holds, and the one its made-up html_url links point into. Requests for
// any owner and name are answered from the same state.
const Repository = "acme/weather-mcp"

// Bot is the login of the author of every comment created through the API.
const Bot = "github-actions[bot]"

// Server is the stand-in API. It is safe for concurrent use.
type Server struct {
	t      testing.TB
	srv    *httptest.Server
	prefix string
	token  string

	mu       sync.Mutex
	requests []Request
	nextID   int64
	clock    time.Time

	comments       map[int][]*Comment // by issue number
	reviews        []Review
	reviewComments map[int][]map[string]any // existing review comments by PR
	pulls          map[int]map[string]any
	commitPulls    map[string][]int
	commitStatus   int // status of commits/{sha}/pulls when not 0
	sarifs         []map[string]any
	issues         []*Issue           // issues (not pull requests), by number
	sarifStatus    int                // default 202
	fail           map[string]Failure // "METHOD path-regexp" → failure
}

// Request is a request the server received.
type Request struct {
	Method string
	Path   string // without the API prefix
	Query  string // the raw query
	Auth   string // the Authorization header
	Body   []byte
}

// Comment is an issue comment as the API returns it.
type Comment struct {
	ID      int64     `json:"id"`
	Body    string    `json:"body"`
	User    User      `json:"user"`
	Created time.Time `json:"created_at"`
	HTMLURL string    `json:"html_url"`
}

// User is a comment's author.
type User struct {
	Login string `json:"login"`
}

// Review is a review created through the API.
type Review struct {
	PR   int
	Body map[string]any // the request's JSON body: commit_id, event, body, comments
}

// Pull is a pull request of Repository.
type Pull struct {
	Number   int
	State    string // open, closed
	HeadSHA  string
	HeadRepo string // "owner/name" of the head; "" is a deleted fork
	HeadRef  string // the head branch
	BaseSHA  string // "" is forty b's; the base branch is main
}

// Failure is an error answer for FailOn.
type Failure struct {
	Status int
	Header map[string]string // set on the answer, such as rate limit headers
	// Message is the error's message; "$AUTH" in it is replaced by the
	// request's Authorization header, as some proxies echo the request.
	Message string
	DocURL  string // the documentation_url member when not ""
}

// New starts a server whose API is under prefix (such as "/api/v3", as
// GitHub Enterprise Server's; "" for github.com's) and that accepts only
// token as a bearer token. It is closed when the test ends.
func New(t testing.TB, prefix, token string) *Server {
	s := &Server{
		t:              t,
		prefix:         strings.TrimSuffix(prefix, "/"),
		token:          token,
		nextID:         1000,
		clock:          time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC),
		comments:       map[int][]*Comment{},
		reviewComments: map[int][]map[string]any{},
		pulls:          map[int]map[string]any{},
		commitPulls:    map[string][]int{},
		sarifStatus:    http.StatusAccepted,
		fail:           map[string]Failure{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the API's base URL, the prefix included, without a trailing
// slash: what a runner's GITHUB_API_URL holds.
func (s *Server) URL() string { return s.srv.URL + s.prefix }

// HTTPClient returns an HTTP client for the server.
func (s *Server) HTTPClient() *http.Client { return s.srv.Client() }

// AddComment adds a comment by login to issue or pull request pr, a
// minute after the previous one. The comment returned is the server's own:
// it shows the edits later requests make. Read it while no request is in
// flight, and change it with SetCommentBody.
func (s *Server) AddComment(pr int, login, body string) *Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addCommentLocked(pr, login, body)
}

func (s *Server) addCommentLocked(pr int, login, body string) *Comment {
	s.nextID++
	s.clock = s.clock.Add(time.Minute)
	c := &Comment{ID: s.nextID, Body: body, User: User{login}, Created: s.clock,
		HTMLURL: fmt.Sprintf("https://github.example/%s/pull/%d#issuecomment-%d", Repository, pr, s.nextID)}
	s.comments[pr] = append(s.comments[pr], c)
	return c
}

// Comments returns a copy of pr's comments in the order they are listed.
func (s *Server) Comments(pr int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments[pr] {
		out = append(out, *c)
	}
	return out
}

// SetCommentBody changes the body of the comment with the id, as an edit
// in GitHub's editor does.
func (s *Server) SetCommentBody(id int64, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cs := range s.comments {
		for _, c := range cs {
			if c.ID == id {
				c.Body = body
				return
			}
		}
	}
	s.t.Errorf("githubtest: no comment %d", id)
}

// SwapComments swaps the places of pr's comments i and j in the listing.
func (s *Server) SwapComments(pr, i, j int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.comments[pr]
	cs[i], cs[j] = cs[j], cs[i]
}

// SetReviewComments sets the review comments pr already has, each in the
// API's shape (id, path, line, body, user).
func (s *Server) SetReviewComments(pr int, comments []map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reviewComments[pr] = comments
}

// AddPull adds the pull request, or replaces the one with its number.
func (s *Server) AddPull(p Pull) {
	s.mu.Lock()
	defer s.mu.Unlock()
	base := p.BaseSHA
	if base == "" {
		base = strings.Repeat("b", 40)
	}
	s.pulls[p.Number] = map[string]any{
		"number":   p.Number,
		"state":    p.State,
		"html_url": fmt.Sprintf("https://github.example/%s/pull/%d", Repository, p.Number),
		"head":     map[string]any{"sha": p.HeadSHA, "ref": p.HeadRef, "repo": map[string]any{"full_name": p.HeadRepo}},
		"base":     map[string]any{"sha": base, "ref": "main", "repo": map[string]any{"full_name": Repository}},
	}
}

// SetCommitPulls sets the pull requests GitHub associates with the commit.
func (s *Server) SetCommitPulls(sha string, numbers ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commitPulls[sha] = numbers
}

// SetCommitStatus makes every request for a commit's pull requests fail
// with status, as GitHub does for a commit it does not know in the
// repository (422 for a fork's); 0 answers them again.
func (s *Server) SetCommitStatus(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commitStatus = status
}

// SetSARIFStatus sets the status of a successful SARIF upload; GitHub's
// is 202, the default.
func (s *Server) SetSARIFStatus(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sarifStatus = status
}

// FailOn makes the requests whose method and path (without the prefix)
// match methodPath, "METHOD path-regexp", fail as f says; a later call for
// the same methodPath replaces f. The patterns of several calls should not
// overlap.
func (s *Server) FailOn(methodPath string, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[methodPath] = f
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is the number of requests with the method whose path (without the
// prefix) matches pathRE in full.
func (s *Server) Count(method, pathRE string) int {
	re := regexp.MustCompile("^" + pathRE + "$")
	n := 0
	for _, r := range s.Requests() {
		if r.Method == method && re.MatchString(r.Path) {
			n++
		}
	}
	return n
}

// Reviews returns the reviews created so far.
func (s *Server) Reviews() []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Review(nil), s.reviews...)
}

// SARIFs returns the JSON bodies of the SARIF uploads so far: commit_sha,
// ref, sarif (gzipped, base64).
func (s *Server) SARIFs() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.sarifs...)
}

var (
	reIssueComments = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/(\d+)/comments$`)
	reRepoComments  = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/comments$`)
	reEditComment   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/comments/(\d+)$`)
	reReviews       = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)/reviews$`)
	reReviewComms   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)/comments$`)
	rePull          = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)$`)
	rePulls         = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls$`)
	reCommitPulls   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/commits/([0-9a-f]+)/pulls$`)
	reSarifs        = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/code-scanning/sarifs$`)
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	path, ok := strings.CutPrefix(r.URL.Path, s.prefix)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization"), Body: body})
	if !ok {
		errorJSON(w, http.StatusNotFound, "Not Found (outside the API prefix)", "")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+s.token {
		errorJSON(w, http.StatusUnauthorized, "Bad credentials", "")
		return
	}
	for key, f := range s.fail {
		method, pathRE, _ := strings.Cut(key, " ")
		if method == r.Method && regexp.MustCompile("^"+pathRE+"$").MatchString(path) {
			for k, v := range f.Header {
				w.Header().Set(k, v)
			}
			msg := strings.ReplaceAll(f.Message, "$AUTH", r.Header.Get("Authorization"))
			errorJSON(w, f.Status, msg, f.DocURL)
			return
		}
	}
	if s.serveIssues(w, r, path, body) {
		return
	}
	switch {
	case r.Method == http.MethodGet && reIssueComments.MatchString(path):
		n, _ := strconv.Atoi(reIssueComments.FindStringSubmatch(path)[3])
		list := make([]any, 0, len(s.comments[n]))
		for _, c := range s.comments[n] {
			list = append(list, c)
		}
		servePage(w, r, list)
	case r.Method == http.MethodGet && reRepoComments.MatchString(path):
		// Every comment in the repository: must never be asked for.
		s.t.Errorf("listed every comment of the repository")
		writeJSON(w, http.StatusOK, []any{})
	case r.Method == http.MethodPost && reIssueComments.MatchString(path):
		n, _ := strconv.Atoi(reIssueComments.FindStringSubmatch(path)[3])
		var in struct{ Body string }
		if json.Unmarshal(body, &in) != nil || in.Body == "" {
			errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", "")
			return
		}
		c := s.addCommentLocked(n, Bot, in.Body)
		writeJSON(w, http.StatusCreated, c)
	case r.Method == http.MethodPatch && reEditComment.MatchString(path):
		id, _ := strconv.ParseInt(reEditComment.FindStringSubmatch(path)[3], 10, 64)
		var in struct{ Body string }
		_ = json.Unmarshal(body, &in)
		for _, cs := range s.comments {
			for _, c := range cs {
				if c.ID == id {
					c.Body = in.Body
					writeJSON(w, http.StatusOK, c)
					return
				}
			}
		}
		errorJSON(w, http.StatusNotFound, "Not Found", "")
	case r.Method == http.MethodPost && reReviews.MatchString(path):
		n, _ := strconv.Atoi(reReviews.FindStringSubmatch(path)[3])
		var in map[string]any
		if json.Unmarshal(body, &in) != nil {
			errorJSON(w, http.StatusBadRequest, "Problems parsing JSON", "")
			return
		}
		s.reviews = append(s.reviews, Review{PR: n, Body: in})
		s.nextID++
		writeJSON(w, http.StatusOK, map[string]any{"id": s.nextID, "state": "COMMENTED"})
	case r.Method == http.MethodGet && reReviewComms.MatchString(path):
		n, _ := strconv.Atoi(reReviewComms.FindStringSubmatch(path)[3])
		list := make([]any, 0)
		for _, c := range s.reviewComments[n] {
			list = append(list, c)
		}
		servePage(w, r, list)
	case r.Method == http.MethodGet && rePull.MatchString(path):
		n, _ := strconv.Atoi(rePull.FindStringSubmatch(path)[3])
		p, ok := s.pulls[n]
		if !ok {
			errorJSON(w, http.StatusNotFound, "Not Found", "")
			return
		}
		writeJSON(w, http.StatusOK, p)
	case r.Method == http.MethodGet && rePulls.MatchString(path):
		var nums []int
		for n, p := range s.pulls {
			if st := r.URL.Query().Get("state"); st == "" || st == "all" || p["state"] == st {
				nums = append(nums, n)
			}
		}
		sort.Sort(sort.Reverse(sort.IntSlice(nums)))
		list := make([]any, 0, len(nums))
		for _, n := range nums {
			list = append(list, s.pulls[n])
		}
		servePage(w, r, list)
	case r.Method == http.MethodGet && reCommitPulls.MatchString(path):
		if s.commitStatus != 0 {
			errorJSON(w, s.commitStatus, "No commit found for SHA", "")
			return
		}
		sha := reCommitPulls.FindStringSubmatch(path)[3]
		list := make([]any, 0)
		for _, n := range s.commitPulls[sha] {
			list = append(list, s.pulls[n])
		}
		writeJSON(w, http.StatusOK, list)
	case r.Method == http.MethodPost && reSarifs.MatchString(path):
		var in map[string]any
		if json.Unmarshal(body, &in) != nil {
			errorJSON(w, http.StatusBadRequest, "Problems parsing JSON", "")
			return
		}
		s.sarifs = append(s.sarifs, in)
		writeJSON(w, s.sarifStatus, map[string]any{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.example/sarifs/1"})
	default:
		errorJSON(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
	}
}

// servePage serves list with GitHub's page/per_page parameters and Link header.
func servePage(w http.ResponseWriter, r *http.Request, list []any) {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	page, _ := strconv.Atoi(q.Get("page"))
	if page <= 0 {
		page = 1
	}
	start := min((page-1)*per, len(list))
	end := min(start+per, len(list))
	last := (len(list) + per - 1) / per
	if last == 0 {
		last = 1
	}
	link := func(p int, rel string) string {
		u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path}
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		qq.Set("page", strconv.Itoa(p))
		qq.Set("per_page", strconv.Itoa(per))
		u.RawQuery = qq.Encode()
		return fmt.Sprintf(`<%s>; rel="%s"`, u.String(), rel)
	}
	var links []string
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"), link(page-1, "prev"))
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	writeJSON(w, http.StatusOK, list[start:end])
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// errorJSON writes an error in the API's shape: message and, when doc is
// not "", documentation_url.
func errorJSON(w http.ResponseWriter, status int, msg, doc string) {
	m := map[string]any{"message": msg}
	if doc != "" {
		m["documentation_url"] = doc
	}
	writeJSON(w, status, m)
}
