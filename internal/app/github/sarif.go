package github

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v66/github"
)

// MaxSARIFGzipBytes is GitHub's limit on an uploaded SARIF file after gzip
// compression.
const MaxSARIFGzipBytes = 10 << 20

// UploadSARIF uploads a SARIF 2.1.0 log to code scanning for commitSHA on
// ref ("refs/pull/N/merge" with GITHUB_SHA on pull_request,
// "refs/pull/N/head" with the head commit when publishing from a
// workflow_run, "refs/heads/BRANCH" on push). The log is gzip-compressed
// and base64-encoded as the API requires. Only HTTP 202 counts as success;
// the returned id identifies the upload for its processing status.
func (c *Client) UploadSARIF(ctx context.Context, owner, repo, ref, commitSHA string, sarif []byte) (id string, err error) {
	if err := checkRepo(owner, repo); err != nil {
		return "", err
	}
	if !strings.HasPrefix(ref, "refs/") || strings.ContainsAny(ref, " \t\r\n") {
		return "", fmt.Errorf("upload SARIF: ref %q must be a full ref (refs/...)", ref)
	}
	if !isCommitID(commitSHA) {
		return "", fmt.Errorf("upload SARIF: commit %q is not a full commit id", commitSHA)
	}
	if err := checkSARIF(sarif); err != nil {
		return "", fmt.Errorf("upload SARIF: %w", err)
	}
	encoded, err := gzipBase64(sarif)
	if err != nil {
		return "", fmt.Errorf("upload SARIF: %w", err)
	}
	if base64.StdEncoding.DecodedLen(len(encoded)) > MaxSARIFGzipBytes {
		return "", &PublishError{Op: OpUploadSARIF, Kind: KindTooLarge, token: c.token,
			Hint: fmt.Sprintf("the compressed SARIF is over GitHub's %d MiB limit: raise the report's thresholds or set upload-sarif: false", MaxSARIFGzipBytes>>20)}
	}
	sid, resp, err := c.gh.CodeScanning.UploadSarif(ctx, owner, repo, &gh.SarifAnalysis{
		CommitSHA: gh.String(commitSHA),
		Ref:       gh.String(ref),
		Sarif:     gh.String(encoded),
	})
	if err != nil {
		return "", c.classify(OpUploadSARIF, err)
	}
	// go-github returns no error for any 2xx; only 202 means the upload
	// was accepted for processing.
	if resp == nil || resp.StatusCode != http.StatusAccepted {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		return "", &PublishError{Op: OpUploadSARIF, Kind: KindUnexpected, Status: status, token: c.token,
			Hint: "GitHub did not accept the upload for processing (expected HTTP 202)"}
	}
	return sid.GetID(), nil
}

func gzipBase64(data []byte) (string, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := zw.Write(data); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// checkSARIF requires a JSON object with "version": "2.1.0" and a "runs"
// array.
func checkSARIF(data []byte) error {
	var head struct {
		Version *string          `json:"version"`
		Runs    *json.RawMessage `json:"runs"`
	}
	if !json.Valid(data) {
		return errors.New("the SARIF is not valid JSON")
	}
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) || json.Unmarshal(data, &head) != nil {
		return errors.New("the SARIF is not a JSON object")
	}
	if head.Version == nil || *head.Version != "2.1.0" {
		return errors.New(`the SARIF's "version" is not "2.1.0"`)
	}
	if head.Runs == nil || !bytes.HasPrefix(bytes.TrimSpace(*head.Runs), []byte("[")) {
		return errors.New(`the SARIF has no "runs" array`)
	}
	return nil
}
