package github

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

// fakeGitHub is a stand-in for the parts of the GitHub REST API that
// publishing uses, mounted under an arbitrary path prefix on loopback. It
// keeps state (comments, reviews, pull requests, uploads) and records every
// request.
type fakeGitHub struct {
	t      *testing.T
	srv    *httptest.Server
	prefix string // e.g. "/enterprise/api/v3"
	token  string

	mu       sync.Mutex
	requests []recorded
	nextID   int64
	clock    time.Time

	comments       map[int][]*fakeComment // by issue number
	reviews        []fakeReviewRequest
	reviewComments map[int][]map[string]any // existing review comments by PR
	pulls          map[int]map[string]any
	commitPulls    map[string][]int
	commitStatus   int // status of commits/{sha}/pulls when not 0
	sarifs         []fakeSarif
	sarifStatus    int                // default 202
	fail           map[string]failure // "METHOD path-regexp" → failure
}

type recorded struct {
	Method, Path, Query, Auth string
	Body                      []byte
}

type fakeComment struct {
	ID      int64     `json:"id"`
	Body    string    `json:"body"`
	User    fakeUser  `json:"user"`
	Created time.Time `json:"created_at"`
	HTMLURL string    `json:"html_url"`
}

type fakeUser struct {
	Login string `json:"login"`
}

type fakeReviewRequest struct {
	PR   int
	Body map[string]any
}

type fakeSarif struct {
	Body map[string]any
}

type failure struct {
	status  int
	header  map[string]string
	message string
	docURL  string
}

func newFake(t *testing.T, prefix, token string) *fakeGitHub {
	f := &fakeGitHub{
		t:              t,
		prefix:         strings.TrimSuffix(prefix, "/"),
		token:          token,
		nextID:         1000,
		clock:          time.Date(2025, 9, 1, 12, 0, 0, 0, time.UTC),
		comments:       map[int][]*fakeComment{},
		reviewComments: map[int][]map[string]any{},
		pulls:          map[int]map[string]any{},
		commitPulls:    map[string][]int{},
		sarifStatus:    http.StatusAccepted,
		fail:           map[string]failure{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// client returns a Client for the fake, with the API URL given without a
// trailing slash.
func (f *fakeGitHub) client(t *testing.T) *Client {
	t.Helper()
	c, err := NewClient(Options{APIURL: f.srv.URL + f.prefix, Token: f.token, HTTPClient: f.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fakeGitHub) addComment(pr int, login, body string) *fakeComment {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.addCommentLocked(pr, login, body)
}

func (f *fakeGitHub) addCommentLocked(pr int, login, body string) *fakeComment {
	f.nextID++
	f.clock = f.clock.Add(time.Minute)
	c := &fakeComment{ID: f.nextID, Body: body, User: fakeUser{login}, Created: f.clock,
		HTMLURL: fmt.Sprintf("https://github.example/acme/weather-mcp/pull/%d#issuecomment-%d", pr, f.nextID)}
	f.comments[pr] = append(f.comments[pr], c)
	return c
}

func (f *fakeGitHub) addPull(number int, state, headSHA, headRepo, headRef string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pulls[number] = map[string]any{
		"number":   number,
		"state":    state,
		"html_url": fmt.Sprintf("https://github.example/acme/weather-mcp/pull/%d", number),
		"head":     map[string]any{"sha": headSHA, "ref": headRef, "repo": map[string]any{"full_name": headRepo}},
		"base":     map[string]any{"sha": strings.Repeat("b", 40), "ref": "main", "repo": map[string]any{"full_name": "acme/weather-mcp"}},
	}
}

func (f *fakeGitHub) failOn(methodPath string, fl failure) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[methodPath] = fl
}

func (f *fakeGitHub) recordedRequests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.requests...)
}

func (f *fakeGitHub) count(method, pathRE string) int {
	re := regexp.MustCompile("^" + pathRE + "$")
	n := 0
	for _, r := range f.recordedRequests() {
		if r.Method == method && re.MatchString(r.Path) {
			n++
		}
	}
	return n
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

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	path, ok := strings.CutPrefix(r.URL.Path, f.prefix)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, recorded{Method: r.Method, Path: path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization"), Body: body})
	if !ok {
		f.errorJSON(w, http.StatusNotFound, "Not Found (outside the API prefix)", "")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		f.errorJSON(w, http.StatusUnauthorized, "Bad credentials", "")
		return
	}
	for key, fl := range f.fail {
		method, pathRE, _ := strings.Cut(key, " ")
		if method == r.Method && regexp.MustCompile("^"+pathRE+"$").MatchString(path) {
			for k, v := range fl.header {
				w.Header().Set(k, v)
			}
			// Some proxies echo the request; the client must redact.
			msg := strings.ReplaceAll(fl.message, "$AUTH", r.Header.Get("Authorization"))
			f.errorJSON(w, fl.status, msg, fl.docURL)
			return
		}
	}
	switch {
	case r.Method == http.MethodGet && reIssueComments.MatchString(path):
		n, _ := strconv.Atoi(reIssueComments.FindStringSubmatch(path)[3])
		list := make([]any, 0, len(f.comments[n]))
		for _, c := range f.comments[n] {
			list = append(list, c)
		}
		f.page(w, r, list)
	case r.Method == http.MethodGet && reRepoComments.MatchString(path):
		// Every comment in the repository: must never be asked for.
		f.t.Errorf("listed every comment of the repository")
		f.writeJSON(w, http.StatusOK, []any{})
	case r.Method == http.MethodPost && reIssueComments.MatchString(path):
		n, _ := strconv.Atoi(reIssueComments.FindStringSubmatch(path)[3])
		var in struct{ Body string }
		if json.Unmarshal(body, &in) != nil || in.Body == "" {
			f.errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", "")
			return
		}
		c := f.addCommentLocked(n, "github-actions[bot]", in.Body)
		f.writeJSON(w, http.StatusCreated, c)
	case r.Method == http.MethodPatch && reEditComment.MatchString(path):
		id, _ := strconv.ParseInt(reEditComment.FindStringSubmatch(path)[3], 10, 64)
		var in struct{ Body string }
		_ = json.Unmarshal(body, &in)
		for _, cs := range f.comments {
			for _, c := range cs {
				if c.ID == id {
					c.Body = in.Body
					f.writeJSON(w, http.StatusOK, c)
					return
				}
			}
		}
		f.errorJSON(w, http.StatusNotFound, "Not Found", "")
	case r.Method == http.MethodPost && reReviews.MatchString(path):
		n, _ := strconv.Atoi(reReviews.FindStringSubmatch(path)[3])
		var in map[string]any
		if json.Unmarshal(body, &in) != nil {
			f.errorJSON(w, http.StatusBadRequest, "Problems parsing JSON", "")
			return
		}
		f.reviews = append(f.reviews, fakeReviewRequest{PR: n, Body: in})
		f.nextID++
		f.writeJSON(w, http.StatusOK, map[string]any{"id": f.nextID, "state": "COMMENTED"})
	case r.Method == http.MethodGet && reReviewComms.MatchString(path):
		n, _ := strconv.Atoi(reReviewComms.FindStringSubmatch(path)[3])
		list := make([]any, 0)
		for _, c := range f.reviewComments[n] {
			list = append(list, c)
		}
		f.page(w, r, list)
	case r.Method == http.MethodGet && rePull.MatchString(path):
		n, _ := strconv.Atoi(rePull.FindStringSubmatch(path)[3])
		p, ok := f.pulls[n]
		if !ok {
			f.errorJSON(w, http.StatusNotFound, "Not Found", "")
			return
		}
		f.writeJSON(w, http.StatusOK, p)
	case r.Method == http.MethodGet && rePulls.MatchString(path):
		var nums []int
		for n, p := range f.pulls {
			if st := r.URL.Query().Get("state"); st == "" || st == "all" || p["state"] == st {
				nums = append(nums, n)
			}
		}
		sort.Sort(sort.Reverse(sort.IntSlice(nums)))
		list := make([]any, 0, len(nums))
		for _, n := range nums {
			list = append(list, f.pulls[n])
		}
		f.page(w, r, list)
	case r.Method == http.MethodGet && reCommitPulls.MatchString(path):
		if f.commitStatus != 0 {
			f.errorJSON(w, f.commitStatus, "No commit found for SHA", "")
			return
		}
		sha := reCommitPulls.FindStringSubmatch(path)[3]
		list := make([]any, 0)
		for _, n := range f.commitPulls[sha] {
			list = append(list, f.pulls[n])
		}
		f.writeJSON(w, http.StatusOK, list)
	case r.Method == http.MethodPost && reSarifs.MatchString(path):
		var in map[string]any
		if json.Unmarshal(body, &in) != nil {
			f.errorJSON(w, http.StatusBadRequest, "Problems parsing JSON", "")
			return
		}
		f.sarifs = append(f.sarifs, fakeSarif{Body: in})
		f.writeJSON(w, f.sarifStatus, map[string]any{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": "https://api.github.example/sarifs/1"})
	default:
		f.errorJSON(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
	}
}

// page serves list with GitHub's page/per_page parameters and Link header.
func (f *fakeGitHub) page(w http.ResponseWriter, r *http.Request, list []any) {
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
	f.writeJSON(w, http.StatusOK, list[start:end])
}

func (f *fakeGitHub) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeGitHub) errorJSON(w http.ResponseWriter, status int, msg, doc string) {
	m := map[string]any{"message": msg}
	if doc != "" {
		m["documentation_url"] = doc
	}
	f.writeJSON(w, status, m)
}
