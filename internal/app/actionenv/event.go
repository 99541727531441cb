package actionenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
)

// MaxEventBytes bounds the event payload read from GITHUB_EVENT_PATH
// (GitHub caps webhook payloads at 25 MB).
const MaxEventBytes = 32 << 20

// ZeroSHA is the "before" of a push that created its branch.
const ZeroSHA = "0000000000000000000000000000000000000000"

// Event names this package decodes into typed parts.
const (
	EventPullRequest       = "pull_request"
	EventPullRequestTarget = "pull_request_target"
	EventPush              = "push"
	EventWorkflowRun       = "workflow_run"
)

// Event is the event that started the run. Exactly one of PullRequest,
// Push and WorkflowRun is set for those events; for any other event all
// three are nil and only Name and Repository are known.
type Event struct {
	Name       string // GITHUB_EVENT_NAME
	Repository string // repository.full_name of the payload, "owner/name"

	PullRequest *PullRequestEvent // pull_request, pull_request_target
	Push        *PushEvent        // push
	WorkflowRun *WorkflowRunEvent // workflow_run
}

// PullRequestEvent is the part of a pull_request or pull_request_target
// payload mcp-surface uses.
type PullRequestEvent struct {
	Action string // opened, synchronize, reopened, ...
	Number int
	State  string // open, closed
	Draft  bool
	Base   Branch // the branch the PR merges into; Base.SHA is the comparison base
	Head   Branch // the PR's branch; Head.SHA is its newest commit
	// Fork is true when the head branch lives in another repository (or in
	// one since deleted): the run's token is then read-only and secrets are
	// withheld on pull_request.
	Fork bool
	// Labels are the names of the pull request's labels when the event
	// fired. A label added later fires a labeled event of its own, whose
	// payload has it: the payload is enough, no API call needed.
	Labels []string
}

// HasLabel reports whether the pull request carries the label name
// (GitHub compares label names without regard to case).
func (p *PullRequestEvent) HasLabel(name string) bool {
	for _, l := range p.Labels {
		if strings.EqualFold(l, name) {
			return true
		}
	}
	return false
}

// Branch is one side of a pull request.
type Branch struct {
	Ref          string // branch name, without refs/heads/
	SHA          string
	RepoFullName string // "owner/name"; empty when the repository was deleted
}

// PushEvent is the part of a push payload mcp-surface uses.
type PushEvent struct {
	Ref     string // refs/heads/main
	Before  string // ZeroSHA when the push created the branch
	After   string // ZeroSHA when the push deleted the branch
	Created bool
	Deleted bool
	Forced  bool
}

// Previous is the commit to compare the push with: Before, unless the push
// created the branch (then ok is false: compare with the committed snapshot
// or with After's parent instead).
func (p *PushEvent) Previous() (sha string, ok bool) {
	if p.Created || p.Before == "" || strings.Trim(p.Before, "0") == "" {
		return "", false
	}
	return p.Before, true
}

// WorkflowRunEvent is the part of a workflow_run payload mcp-surface uses:
// the run of the analyzing workflow that the publishing workflow follows.
type WorkflowRunEvent struct {
	Action         string // requested, in_progress, completed
	ID             int64  // the triggering run's id (for downloading its artifacts)
	Name           string // the triggering workflow's name
	Event          string // what triggered that run: pull_request, push, ...
	Status         string
	Conclusion     string // success, failure, ... ("" until completed)
	HeadSHA        string
	HeadBranch     string
	HeadRepository string // "owner/name" the head commit came from
	Repository     string // "owner/name" the run belongs to
	RunNumber      int
	RunAttempt     int
	// PullRequests lists the PRs GitHub associated with the run. It is
	// empty when the head branch lives in a fork: find the PR from HeadSHA
	// through the API and verify it.
	PullRequests []WorkflowRunPullRequest
	// Fork is true when HeadRepository differs from Repository.
	Fork bool
}

// WorkflowRunPullRequest is one entry of workflow_run.pull_requests.
type WorkflowRunPullRequest struct {
	Number  int
	HeadSHA string
	HeadRef string
	BaseSHA string
	BaseRef string
}

// Event reads and parses the payload at GITHUB_EVENT_PATH for the event
// named by GITHUB_EVENT_NAME.
func (e *Env) Event() (*Event, error) {
	name := e.getenv("GITHUB_EVENT_NAME")
	if name == "" {
		return nil, fmt.Errorf("event: GITHUB_EVENT_NAME %w", ErrNotSet)
	}
	path := e.getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return nil, fmt.Errorf("event: GITHUB_EVENT_PATH %w", ErrNotSet)
	}
	data, err := infile.Read(context.Background(), path, "an event payload", MaxEventBytes)
	if err != nil {
		return nil, fmt.Errorf("event: %w", err)
	}
	return ParseEvent(name, data)
}

// wire shapes: only the fields used, numbers decoded as integers.
type wireRepo struct {
	FullName string `json:"full_name"`
	Fork     bool   `json:"fork"`
}

type wireBranch struct {
	Ref  string    `json:"ref"`
	SHA  string    `json:"sha"`
	Repo *wireRepo `json:"repo"`
}

type wirePayload struct {
	Action      string    `json:"action"`
	Number      int       `json:"number"`
	Repository  *wireRepo `json:"repository"`
	PullRequest *struct {
		Number int        `json:"number"`
		State  string     `json:"state"`
		Draft  bool       `json:"draft"`
		Base   wireBranch `json:"base"`
		Head   wireBranch `json:"head"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
	} `json:"pull_request"`

	// push
	Ref     string `json:"ref"`
	Before  string `json:"before"`
	After   string `json:"after"`
	Created bool   `json:"created"`
	Deleted bool   `json:"deleted"`
	Forced  bool   `json:"forced"`

	WorkflowRun *struct {
		ID             int64     `json:"id"`
		Name           string    `json:"name"`
		Event          string    `json:"event"`
		Status         string    `json:"status"`
		Conclusion     *string   `json:"conclusion"`
		HeadSHA        string    `json:"head_sha"`
		HeadBranch     string    `json:"head_branch"`
		RunNumber      int       `json:"run_number"`
		RunAttempt     int       `json:"run_attempt"`
		HeadRepository *wireRepo `json:"head_repository"`
		Repository     *wireRepo `json:"repository"`
		PullRequests   []struct {
			Number int        `json:"number"`
			Head   wireBranch `json:"head"`
			Base   wireBranch `json:"base"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

// ParseEvent decodes a payload for the named event. Commit ids are checked
// to be hex (they end up in git command lines), and the parts mcp-surface
// needs are checked to be present.
func ParseEvent(name string, payload []byte) (*Event, error) {
	var w wirePayload
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("event %s: %w", name, err)
	}
	ev := &Event{Name: name}
	if w.Repository != nil {
		ev.Repository = w.Repository.FullName
	}
	var err error
	switch name {
	case EventPullRequest, EventPullRequestTarget:
		ev.PullRequest, err = pullRequestFrom(&w)
	case EventPush:
		ev.Push, err = pushFrom(&w)
	case EventWorkflowRun:
		ev.WorkflowRun, err = workflowRunFrom(&w)
	}
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", name, err)
	}
	return ev, nil
}

func pullRequestFrom(w *wirePayload) (*PullRequestEvent, error) {
	pr := w.PullRequest
	if pr == nil {
		return nil, errors.New("the payload has no pull_request")
	}
	p := &PullRequestEvent{
		Action: w.Action,
		Number: pr.Number,
		State:  pr.State,
		Draft:  pr.Draft,
		Base:   branchFrom(pr.Base),
		Head:   branchFrom(pr.Head),
	}
	for _, l := range pr.Labels {
		p.Labels = append(p.Labels, l.Name)
	}
	if p.Number == 0 {
		p.Number = w.Number
	}
	if p.Number <= 0 {
		return nil, fmt.Errorf("pull request number %d", p.Number)
	}
	if err := checkSHA("pull_request.base.sha", p.Base.SHA, false); err != nil {
		return nil, err
	}
	if err := checkSHA("pull_request.head.sha", p.Head.SHA, false); err != nil {
		return nil, err
	}
	p.Fork = p.Head.RepoFullName == "" || !strings.EqualFold(p.Head.RepoFullName, p.Base.RepoFullName)
	return p, nil
}

func branchFrom(b wireBranch) Branch {
	out := Branch{Ref: b.Ref, SHA: b.SHA}
	if b.Repo != nil {
		out.RepoFullName = b.Repo.FullName
	}
	return out
}

func pushFrom(w *wirePayload) (*PushEvent, error) {
	p := &PushEvent{Ref: w.Ref, Before: w.Before, After: w.After, Created: w.Created, Deleted: w.Deleted, Forced: w.Forced}
	if err := checkSHA("before", p.Before, false); err != nil {
		return nil, err
	}
	if err := checkSHA("after", p.After, false); err != nil {
		return nil, err
	}
	return p, nil
}

func workflowRunFrom(w *wirePayload) (*WorkflowRunEvent, error) {
	r := w.WorkflowRun
	if r == nil {
		return nil, errors.New("the payload has no workflow_run")
	}
	out := &WorkflowRunEvent{
		Action:     w.Action,
		ID:         r.ID,
		Name:       r.Name,
		Event:      r.Event,
		Status:     r.Status,
		HeadSHA:    r.HeadSHA,
		HeadBranch: r.HeadBranch,
		RunNumber:  r.RunNumber,
		RunAttempt: r.RunAttempt,
	}
	if r.Conclusion != nil {
		out.Conclusion = *r.Conclusion
	}
	if r.HeadRepository != nil {
		out.HeadRepository = r.HeadRepository.FullName
	}
	if r.Repository != nil {
		out.Repository = r.Repository.FullName
	} else if w.Repository != nil {
		out.Repository = w.Repository.FullName
	}
	if err := checkSHA("workflow_run.head_sha", out.HeadSHA, false); err != nil {
		return nil, err
	}
	for i, p := range r.PullRequests {
		e := WorkflowRunPullRequest{Number: p.Number, HeadSHA: p.Head.SHA, HeadRef: p.Head.Ref, BaseSHA: p.Base.SHA, BaseRef: p.Base.Ref}
		if e.Number <= 0 {
			return nil, fmt.Errorf("workflow_run.pull_requests[%d]: number %d", i, e.Number)
		}
		if err := checkSHA(fmt.Sprintf("workflow_run.pull_requests[%d].head.sha", i), e.HeadSHA, true); err != nil {
			return nil, err
		}
		if err := checkSHA(fmt.Sprintf("workflow_run.pull_requests[%d].base.sha", i), e.BaseSHA, true); err != nil {
			return nil, err
		}
		out.PullRequests = append(out.PullRequests, e)
	}
	out.Fork = out.HeadRepository == "" || !strings.EqualFold(out.HeadRepository, out.Repository)
	return out, nil
}

// checkSHA requires a 40- or 64-digit lower-case hex commit id (SHA-1 or
// SHA-256 repositories); optional allows "".
func checkSHA(field, s string, optional bool) error {
	if s == "" && optional {
		return nil
	}
	if !gitrepo.IsCommitID(s) {
		return fmt.Errorf("%s %q is not a commit id", field, s)
	}
	return nil
}
