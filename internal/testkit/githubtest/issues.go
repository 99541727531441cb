package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Issue is an issue of Repository as the API returns it.
type Issue struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Body        string `json:"body"`
	State       string `json:"state"` // open, closed
	StateReason string `json:"state_reason,omitempty"`
	User        User   `json:"user"`
	HTMLURL     string `json:"html_url"`
}

// firstIssue is the number of the first issue filed: pull requests of the
// tests have small numbers, and share the number space on GitHub.
const firstIssue = 500

// AddIssue files an open issue as login (another author than Bot, say)
// and returns its number.
func (s *Server) AddIssue(login, title, body string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addIssueLocked(login, title, body).Number
}

func (s *Server) addIssueLocked(login, title, body string) *Issue {
	n := firstIssue + len(s.issues)
	is := &Issue{Number: n, Title: title, Body: body, State: "open", User: User{login},
		HTMLURL: fmt.Sprintf("https://github.example/%s/issues/%d", Repository, n)}
	s.issues = append(s.issues, is)
	return is
}

// Issues returns a copy of every issue, by number.
func (s *Server) Issues() []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Issue, 0, len(s.issues))
	for _, is := range s.issues {
		out = append(out, *is)
	}
	return out
}

var (
	reIssues = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues$`)
	reIssue  = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/(\d+)$`)
)

// serveIssues answers the issue endpoints (list, create, edit); it
// reports whether the request was one of them. s.mu is held.
func (s *Server) serveIssues(w http.ResponseWriter, r *http.Request, path string, body []byte) bool {
	switch {
	case r.Method == http.MethodGet && reIssues.MatchString(path):
		q := r.URL.Query()
		state := q.Get("state")
		if state == "" {
			state = "open"
		}
		list := make([]any, 0)
		// Newest first, as the API sorts by creation by default.
		for i := len(s.issues) - 1; i >= 0; i-- {
			is := s.issues[i]
			if state != "all" && is.State != state {
				continue
			}
			if c := q.Get("creator"); c != "" && !strings.EqualFold(c, is.User.Login) {
				continue
			}
			list = append(list, is)
		}
		servePage(w, r, list)
	case r.Method == http.MethodPost && reIssues.MatchString(path):
		var in struct{ Title, Body string }
		if json.Unmarshal(body, &in) != nil || in.Title == "" {
			errorJSON(w, http.StatusUnprocessableEntity, "Validation Failed", "")
			return true
		}
		writeJSON(w, http.StatusCreated, s.addIssueLocked(Bot, in.Title, in.Body))
	case r.Method == http.MethodPatch && reIssue.MatchString(path):
		n, _ := strconv.Atoi(reIssue.FindStringSubmatch(path)[3])
		var in struct {
			Title, Body, State *string
			StateReason        *string `json:"state_reason"`
		}
		if json.Unmarshal(body, &in) != nil {
			errorJSON(w, http.StatusBadRequest, "Problems parsing JSON", "")
			return true
		}
		for _, is := range s.issues {
			if is.Number != n {
				continue
			}
			if in.Title != nil {
				is.Title = *in.Title
			}
			if in.Body != nil {
				is.Body = *in.Body
			}
			if in.State != nil {
				is.State = *in.State
			}
			if in.StateReason != nil {
				is.StateReason = *in.StateReason
			}
			writeJSON(w, http.StatusOK, is)
			return true
		}
		errorJSON(w, http.StatusNotFound, "Not Found", "")
	default:
		return false
	}
	return true
}
