// Package github publishes mcp-surface's verdict on GitHub: one sticky pull
// request comment kept up to date across pushes (UpsertStickyComment), an
// optional review with comments on the changed lines that define changed
// tools (CreateReview), and SARIF for code scanning (UploadSARIF). It also
// finds and verifies the pull request a workflow_run belongs to
// (FindPullRequestForSHA, GetPullRequest) and carries the analysis from an
// unprivileged job to a privileged one as untrusted data (Bundle).
//
// A Publisher is the publishing flow of one run on top of the Client: the
// comment as the comment mode says (on-change only updates a comment when
// there is no news), the review, the SARIF upload, and for a publish job
// the bundle's verification against the pull request the trusted event
// names (VerifyBundle). Its options carry every value it needs; nothing in
// this package reads the environment, so a caller other than the action
// (another CI, a test) configures it the same way.
//
// The Client wraps go-github v66 with the base URL taken from the
// runner's GITHUB_API_URL, so GitHub Enterprise Server and a test server at
// any path work alike. It papers over that library's traps: UploadSarif
// reports success without an id unless the status is 202 (we require 202);
// listing comments for issue 0 lists the whole repository's (we refuse
// pr <= 0); a single review comment outside the diff fails the whole review
// without saying which (we drop such comments before sending, given the
// diff's lines).
//
// Publishing must never hide the verdict. Every API failure comes back as a
// *PublishError whose Kind says what happened (forbidden, not-found,
// rate-limited, ...) and whose message says what to do about it; callers
// log it as a warning, mention it in the job summary and keep the exit
// code. The token is never part of any message: errors are redacted
// against it even when a server echoes it back.
//
// Our sticky comment is recognised by a hidden marker on its first line
// and by its author's login (github-actions[bot] by default): GET /user is
// forbidden to the workflow's GITHUB_TOKEN, so the login is configured, not
// discovered. A marker anywhere else in a body is someone's text, never
// ours (pkg/report breaks every HTML comment a server writes, and this
// package does not rely on it); of several comments with the marker the
// oldest is the sticky one. A review comment's key marker likewise counts
// only as its last line.
package github
