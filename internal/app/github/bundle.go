package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// BundleVersion is the format version of the bundle this package writes
// and the only one it reads.
const BundleVersion = 1

// BundleFileName is the bundle's file name inside the uploaded artifact.
const BundleFileName = "mcp-surface-bundle.json"

// Bounds on a bundle read back.
const (
	MaxBundleBytes          = 20 << 20
	MaxBundleReviewComments = 100
	maxJSONDepth            = 256
)

// ErrInvalidBundle is wrapped by every error about a bundle's shape.
var ErrInvalidBundle = errors.New("invalid bundle")

// ErrBundleMismatch is wrapped when a bundle does not belong to the run
// and pull request it is being published for.
var ErrBundleMismatch = errors.New("the bundle does not match the pull request")

// Bundle carries one analysis from the unprivileged job (mode analyze,
// which ran the pull request's code) to the privileged one (mode publish,
// in a workflow_run job). Everything in it was produced by code the pull
// request's author controls: the publisher reads it with ReadBundle, which
// checks its shape and bounds, and Verify, which ties it to the trusted
// event, before publishing anything.
type Bundle struct {
	Version     int    `json:"version"`      // BundleVersion
	Repository  string `json:"repository"`   // "owner/name" of the base repository
	PullRequest int    `json:"pull_request"` // the PR's number
	HeadSHA     string `json:"head_sha"`     // the head commit analyzed
	BaseSHA     string `json:"base_sha"`     // the base commit compared with
	// Key names the sticky comment in a matrix of servers (see
	// StickyMarker); "" for one server.
	Key      string          `json:"key,omitempty"`
	Verdict  Verdict         `json:"verdict"`
	Report   json.RawMessage `json:"report"`          // the JSON report: {"findings": [...], "summary": {...}}
	Markdown string          `json:"markdown"`        // the PR comment and job summary
	SARIF    json.RawMessage `json:"sarif,omitempty"` // SARIF 2.1.0; absent when not uploaded
	// ReviewComments are already limited to the PR's diff by the analyzing
	// job (which has the checkout); GitHub rejects any that are not.
	ReviewComments []ReviewComment `json:"review_comments,omitempty"`
}

// Verdict is the analysis's outcome.
type Verdict struct {
	ExitCode int    `json:"exit_code"` // 0, 1 or 2 (the exit codes of the README)
	Counts   Counts `json:"counts"`
}

// Counts are findings per level.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Note    int `json:"note"`
	Info    int `json:"info"`
}

// Exact key sets of the bundle's own objects (encoding/json matches keys
// case-insensitively; a strict reader must not).
var (
	bundleKeys  = []string{"version", "repository", "pull_request", "head_sha", "base_sha", "key", "verdict", "report", "markdown", "sarif", "review_comments"}
	verdictKeys = []string{"exit_code", "counts"}
	countsKeys  = []string{"error", "warning", "note", "info"}
	commentKeys = []string{"path", "line", "start_line", "body", "key"}
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidBundle, fmt.Sprintf(format, args...))
}

// Validate checks the bundle's fields (what ReadBundle checks after
// decoding; WriteBundle checks it before writing).
func (b *Bundle) Validate() error {
	if b.Version != BundleVersion {
		return invalidf("version %d, want %d", b.Version, BundleVersion)
	}
	if _, _, err := splitRepository(b.Repository); err != nil {
		return invalidf("%v", err)
	}
	if b.PullRequest <= 0 {
		return invalidf("pull_request %d", b.PullRequest)
	}
	if !isCommitID(b.HeadSHA) {
		return invalidf("head_sha %q is not a commit id", b.HeadSHA)
	}
	if !isCommitID(b.BaseSHA) {
		return invalidf("base_sha %q is not a commit id", b.BaseSHA)
	}
	if b.Key != "" && sanitizeKey(b.Key) != b.Key {
		return invalidf("key %q: use letters, digits, '.', '_' or '-'", b.Key)
	}
	if e := b.Verdict.ExitCode; e < 0 || e > 2 {
		return invalidf("verdict.exit_code %d", e)
	}
	for _, n := range []int{b.Verdict.Counts.Error, b.Verdict.Counts.Warning, b.Verdict.Counts.Note, b.Verdict.Counts.Info} {
		if n < 0 || n > 1e9 {
			return invalidf("verdict.counts: %d", n)
		}
	}
	if err := checkReport(b.Report); err != nil {
		return invalidf("report: %v", err)
	}
	if len(b.Markdown) > MaxCommentBytes {
		return invalidf("markdown is %d bytes, over %d", len(b.Markdown), MaxCommentBytes)
	}
	if !utf8.ValidString(b.Markdown) || strings.ContainsRune(b.Markdown, 0) {
		return invalidf("markdown is not valid UTF-8 text")
	}
	if b.SARIF != nil {
		if err := checkSARIF(b.SARIF); err != nil {
			return invalidf("sarif: %v", err)
		}
	}
	if len(b.ReviewComments) > MaxBundleReviewComments {
		return invalidf("%d review comments, over %d", len(b.ReviewComments), MaxBundleReviewComments)
	}
	for i, rc := range b.ReviewComments {
		switch {
		case !validCommentPath(rc.Path):
			return invalidf("review_comments[%d].path %q", i, rc.Path)
		case rc.Line <= 0 || rc.StartLine < 0 || (rc.StartLine > 0 && rc.StartLine >= rc.Line):
			return invalidf("review_comments[%d]: lines %d..%d", i, rc.StartLine, rc.Line)
		case rc.Body == "" || len(rc.Body) > MaxCommentBytes || !utf8.ValidString(rc.Body):
			return invalidf("review_comments[%d].body is empty, too long or not UTF-8", i)
		case rc.Key != "" && sanitizeKey(rc.Key) != rc.Key:
			return invalidf("review_comments[%d].key %q", i, rc.Key)
		}
	}
	return nil
}

// checkReport requires a JSON object with a "findings" array and a
// "summary" object (schema/report.schema.json).
func checkReport(raw json.RawMessage) error {
	var top map[string]json.RawMessage
	if len(raw) == 0 || !json.Valid(raw) || json.Unmarshal(raw, &top) != nil || top == nil {
		return errors.New("not a JSON object")
	}
	if f, ok := top["findings"]; !ok || !bytes.HasPrefix(bytes.TrimSpace(f), []byte("[")) {
		return errors.New(`no "findings" array`)
	}
	if s, ok := top["summary"]; !ok || !bytes.HasPrefix(bytes.TrimSpace(s), []byte("{")) {
		return errors.New(`no "summary" object`)
	}
	return nil
}

// WriteBundle validates b and writes it as indented JSON.
func WriteBundle(w io.Writer, b *Bundle) error {
	if err := b.Validate(); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return fmt.Errorf("write bundle: %w", err)
	}
	return nil
}

// WriteBundleFile writes b to path (BundleFileName in the directory given
// to actions/upload-artifact).
func WriteBundleFile(path string, b *Bundle) error {
	var buf bytes.Buffer
	if err := WriteBundle(&buf, b); err != nil {
		return err
	}
	if err := outfile.Write(context.Background(), path, buf.Bytes()); err != nil {
		return fmt.Errorf("write bundle: %w", err)
	}
	return nil
}

// ReadBundleFile reads the bundle at path, which must be a regular file
// (not a symbolic link), with ReadBundle.
func ReadBundleFile(path string) (*Bundle, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, invalidf("%s is not a regular file", path)
	}
	if fi.Size() > MaxBundleBytes {
		return nil, invalidf("%d bytes, over %d", fi.Size(), MaxBundleBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	defer f.Close()
	return ReadBundle(f)
}

// ReadBundle reads a bundle as untrusted data: at most MaxBundleBytes of
// UTF-8 JSON, one value, no duplicate keys anywhere, exactly the known keys
// (case-sensitive) in the bundle's own objects, every type as declared,
// then Validate. It does not tie the bundle to a pull request: call Verify
// before publishing.
func ReadBundle(r io.Reader) (*Bundle, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBundleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	if len(data) > MaxBundleBytes {
		return nil, invalidf("over %d bytes", MaxBundleBytes)
	}
	if !utf8.Valid(data) {
		return nil, invalidf("not UTF-8")
	}
	if err := checkStrictJSON(data); err != nil {
		return nil, invalidf("%v", err)
	}
	if err := checkKeys(data); err != nil {
		return nil, invalidf("%v", err)
	}
	var b Bundle
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, invalidf("%v", err)
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return &b, nil
}

// checkKeys compares the keys of the bundle's own objects with the known
// sets, exactly.
func checkKeys(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return errors.New("not a JSON object")
	}
	if err := onlyKeys("bundle", top, bundleKeys); err != nil {
		return err
	}
	for _, req := range []string{"version", "repository", "pull_request", "head_sha", "base_sha", "verdict", "report", "markdown"} {
		if _, ok := top[req]; !ok {
			return fmt.Errorf("missing %q", req)
		}
	}
	var verdict map[string]json.RawMessage
	if err := json.Unmarshal(top["verdict"], &verdict); err != nil || verdict == nil {
		return errors.New(`"verdict" is not an object`)
	}
	if err := onlyKeys("verdict", verdict, verdictKeys); err != nil {
		return err
	}
	if c, ok := verdict["counts"]; ok {
		var counts map[string]json.RawMessage
		if err := json.Unmarshal(c, &counts); err != nil || counts == nil {
			return errors.New(`"verdict.counts" is not an object`)
		}
		if err := onlyKeys("verdict.counts", counts, countsKeys); err != nil {
			return err
		}
	}
	if rc, ok := top["review_comments"]; ok {
		var list []map[string]json.RawMessage
		if err := json.Unmarshal(rc, &list); err != nil {
			return errors.New(`"review_comments" is not an array of objects`)
		}
		for i, m := range list {
			if err := onlyKeys(fmt.Sprintf("review_comments[%d]", i), m, commentKeys); err != nil {
				return err
			}
		}
	}
	return nil
}

func onlyKeys(where string, m map[string]json.RawMessage, allowed []string) error {
	for k := range m {
		known := false
		for _, a := range allowed {
			if k == a {
				known = true
				break
			}
		}
		if !known {
			return fmt.Errorf("%s: unknown key %q", where, k)
		}
	}
	return nil
}

// checkStrictJSON requires exactly one JSON value, no duplicate object keys
// at any depth and nesting within maxJSONDepth.
func checkStrictJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		d, isDelim := tok.(json.Delim)
		switch {
		case top != nil && top.object && top.expect && !isDelim:
			k, _ := tok.(string)
			if top.keys[k] {
				return fmt.Errorf("duplicate key %q", k)
			}
			top.keys[k] = true
			top.expect = false
		case d == '{' || d == '[':
			if len(stack) >= maxJSONDepth {
				return fmt.Errorf("nested deeper than %d", maxJSONDepth)
			}
			stack = append(stack, &frame{object: d == '{', keys: map[string]bool{}, expect: d == '{'})
		case d == '}' || d == ']':
			stack = stack[:len(stack)-1]
			markValueDone(stack)
		default:
			markValueDone(stack)
		}
		if len(stack) == 0 && dec.More() {
			return errors.New("data after the JSON value")
		}
	}
	return nil
}

// frame is an open object or array in checkStrictJSON.
type frame struct {
	object bool
	keys   map[string]bool
	expect bool // object: the next token is a key
}

// markValueDone records that the current object's value was read, so the
// next token is a key.
func markValueDone(stack []*frame) {
	if n := len(stack); n > 0 && stack[n-1].object {
		stack[n-1].expect = true
	}
}

// Expected is what the publishing run knows from its own trusted event,
// to hold a bundle against.
type Expected struct {
	// Repository is the publishing run's GITHUB_REPOSITORY.
	Repository string
	// HeadSHA is workflow_run.head_sha: the commit the analyzing run
	// checked out. Required.
	HeadSHA string
	// PullRequest is the number from workflow_run.pull_requests, or from
	// FindPullRequestForSHA for a fork; 0 when not known.
	PullRequest int
}

// Verify ties the bundle to the trusted event and to the pull request as
// it is now: the repository and head commit must be the expected ones, the
// pull request number must match when known, and the pull request (read
// through the API) must be open with the bundle's head commit as its
// head. Only then may the bundle be published on that pull request.
// Mismatches wrap ErrBundleMismatch; API failures are *PublishError.
func (b *Bundle) Verify(ctx context.Context, c *Client, want Expected) (*PullRequest, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	if !isCommitID(want.HeadSHA) {
		return nil, fmt.Errorf("verify bundle: the expected head commit %q is not a commit id", want.HeadSHA)
	}
	if err := b.Match(want.Repository, want.HeadSHA); err != nil {
		return nil, err
	}
	if want.PullRequest > 0 && b.PullRequest != want.PullRequest {
		return nil, fmt.Errorf("%w: it is for pull request #%d, the run belongs to #%d", ErrBundleMismatch, b.PullRequest, want.PullRequest)
	}
	owner, repo, err := splitRepository(want.Repository)
	if err != nil {
		return nil, err
	}
	pr, err := c.GetPullRequest(ctx, owner, repo, b.PullRequest)
	if err != nil {
		return nil, err
	}
	if pr.State != "open" {
		return nil, fmt.Errorf("%w: pull request #%d is %s", ErrBundleMismatch, pr.Number, pr.State)
	}
	if pr.HeadSHA != b.HeadSHA {
		return nil, fmt.Errorf("%w: pull request #%d's head is now %s, not %s (a newer run will publish)", ErrBundleMismatch, pr.Number, pr.HeadSHA, b.HeadSHA)
	}
	return pr, nil
}

// bundleMarkdownTooLarge replaces a comment over GitHub's limit in a
// bundle: the publisher renders its own comment from the report anyway.
const bundleMarkdownTooLarge = "The report is too large for a comment; see the job summary of the analyzing run."

// NewBundle is the bundle of p, the analysis of pull request pr (its
// number, head and base commits) in repository ("owner/name"), whose
// verdict was exitCode.
func NewBundle(repository string, pr PullRequest, exitCode int, p *Publication) *Bundle {
	s := p.Report.Summary()
	b := &Bundle{
		Version: BundleVersion, Repository: repository, PullRequest: pr.Number,
		HeadSHA: pr.HeadSHA, BaseSHA: pr.BaseSHA,
		Verdict:        Verdict{ExitCode: exitCode, Counts: Counts{Error: s.Error, Warning: s.Warning, Note: s.Note, Info: s.Info}},
		Report:         p.JSON,
		Markdown:       string(p.Markdown),
		SARIF:          p.SARIF,
		ReviewComments: p.ReviewComments,
	}
	if len(b.Markdown) > MaxCommentBytes {
		b.Markdown = bundleMarkdownTooLarge
	}
	return b
}

// WriteBundleDir writes b as BundleFileName in dir (created when missing:
// the directory given to actions/upload-artifact) and returns the file's
// path.
func WriteBundleDir(dir string, b *Bundle) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	path := filepath.Join(dir, BundleFileName)
	if err := WriteBundleFile(path, b); err != nil {
		return "", err
	}
	return path, nil
}

// OpenBundle reads the bundle at path, a file or the directory that
// WriteBundleDir wrote (an artifact downloaded as it was uploaded), with
// ReadBundleFile.
func OpenBundle(path string) (*Bundle, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, BundleFileName)
	}
	return ReadBundleFile(path)
}

// Match holds the bundle against what the trusted event says without
// asking the API: the repository ("owner/name", case aside) and the head
// commit the analyzing run checked out. Mismatches wrap ErrBundleMismatch.
func (b *Bundle) Match(repository, headSHA string) error {
	if !strings.EqualFold(b.Repository, repository) {
		return fmt.Errorf("%w: it is for repository %q, this run is in %q", ErrBundleMismatch, b.Repository, repository)
	}
	if b.HeadSHA != headSHA {
		return fmt.Errorf("%w: it is for commit %s, the analyzing run checked out %s", ErrBundleMismatch, b.HeadSHA, headSHA)
	}
	return nil
}

// DecodeReport reads the bundle's JSON report back (report.DecodeJSON
// checks it as the untrusted data it is) with the fail-on level it was
// made with. A report that does not decode wraps ErrInvalidBundle.
func (b *Bundle) DecodeReport() (*report.Report, rules.Level, error) {
	r, err := report.DecodeJSON(b.Report)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrInvalidBundle, err)
	}
	failOn, err := reportFailOn(b.Report)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrInvalidBundle, err)
	}
	return r, failOn, nil
}

// reportFailOn reads summary.failOn of a JSON report; absent is error,
// the default.
func reportFailOn(raw json.RawMessage) (rules.Level, error) {
	var top struct {
		Summary struct {
			FailOn string `json:"failOn"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return "", err
	}
	if top.Summary.FailOn == "" {
		return rules.LevelError, nil
	}
	return rules.ParseLevel(top.Summary.FailOn)
}

// ReviewCommentsFor are the bundle's review comments whose key is a
// finding of r (the bundle's report, decoded), with bodies rendered from r:
// the bundle's own text is never posted.
func (b *Bundle) ReviewCommentsFor(r *report.Report) []ReviewComment {
	prior := make([]report.ReviewComment, len(b.ReviewComments))
	for i, c := range b.ReviewComments {
		prior[i] = report.ReviewComment{Path: c.Path, Line: c.Line, Key: c.Key}
	}
	return ReviewCommentsOf(report.RefreshReviewComments(r, prior))
}

// VerifyBundle finds the pull request of the workflow run and verifies
// the bundle against it (Verify). A bundle that names another pull
// request than the one whose head the trusted event names was tampered
// with: an error. A pull request that moved on or closed since, or an API
// failure, is a warning and ok is false (a newer run publishes); so is a
// Publisher without a client.
func (pb *Publisher) VerifyBundle(ctx context.Context, b *Bundle, run *actionenv.WorkflowRunEvent) (pr int, ok bool, err error) {
	o := pb.o
	if o.Client == nil {
		o.Warn(o.Unavailable.Error())
		return 0, false, nil
	}
	number := 0
	for _, p := range run.PullRequests {
		if p.HeadSHA == run.HeadSHA {
			number = p.Number
			break
		}
	}
	if number == 0 {
		owner, repo, _ := strings.Cut(o.Repository, "/")
		found, err := o.Client.FindPullRequest(ctx, owner, repo, PullRequestQuery{HeadSHA: run.HeadSHA, HeadRepo: run.HeadRepository, HeadBranch: run.HeadBranch})
		if err != nil {
			if errors.Is(err, ErrNoPullRequest) {
				o.Warn(fmt.Sprintf("no open pull request has head %s any more: nothing to publish", shortSHA(run.HeadSHA)))
			} else {
				pb.warn(err)
			}
			return 0, false, nil
		}
		number = found.Number
	}
	if b.PullRequest != number {
		return 0, false, fmt.Errorf("%w: it names pull request #%d, but commit %s is the head of #%d", ErrBundleMismatch, b.PullRequest, shortSHA(run.HeadSHA), number)
	}
	if _, err := b.Verify(ctx, o.Client, Expected{Repository: o.Repository, HeadSHA: run.HeadSHA, PullRequest: number}); err != nil {
		if errors.Is(err, ErrBundleMismatch) {
			o.Warn(fmt.Sprintf("not published: %v", err))
		} else {
			pb.warn(err)
		}
		return 0, false, nil
	}
	return number, true, nil
}

// shortSHA abbreviates a commit id for messages.
func shortSHA(s string) string {
	if isCommitID(s) && len(s) > 12 {
		return s[:12]
	}
	return s
}
