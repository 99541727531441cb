package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
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
