package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// The OASIS SARIF 2.1.0 schema, pinned: the file at SARIFCommit of the
// OASIS SARIF specification repository, whose SHA-256 is SARIFSHA256. Any
// other bytes are refused.
const (
	SARIFCommit = "e0583813964ec43cea53b6b531b402866095ed1f"
	SARIFSHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
	SARIFURL    = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/" + SARIFCommit + "/sarif-2.1/schema/" + sarifFile
	sarifFile   = "sarif-schema-2.1.0.json"
)

// sarifDownloadURL is SARIFURL; tests replace it with a loopback server.
var sarifDownloadURL = SARIFURL

var (
	sarifOnce sync.Once
	sarifPath string
	sarifErr  error
)

// SARIFSchema returns the path of a verified copy of the SARIF 2.1.0
// schema: $MCP_SURFACE_TEST_DATA/sarif/sarif-schema-2.1.0.json, else the
// copy in the cache, else the pinned download (written to the cache). The
// lookup runs once per test binary; an error is an *UnavailableError, for
// Require.
func SARIFSchema() (string, error) {
	sarifOnce.Do(func() { sarifPath, sarifErr = findSARIF() })
	return sarifPath, sarifErr
}

func findSARIF() (string, error) {
	ue := &UnavailableError{What: "the SARIF 2.1.0 schema"}
	root, rootErr := cacheRoot()
	cached := filepath.Join(root, "sarif", sarifFile)
	where := cached
	if rootErr != nil {
		where = "the user cache directory"
	}
	ue.Fix = fixText(fmt.Sprintf("or run the tests once where the network is reachable (they keep the file in %s)", where))
	return lookup(ue, rootErr, func(data string) (string, error) {
		path := filepath.Join(data, "sarif", sarifFile)
		return path, checkSARIF(path)
	}, func() (string, bool) {
		err := checkSARIF(cached)
		if err == nil {
			return cached, true
		}
		ue.Tried = append(ue.Tried, "the cache: "+err.Error())
		ctx, cancel := Context()
		defer cancel()
		url := sarifDownloadURL
		body, err := download(ctx, url)
		if err != nil {
			ue.Tried = append(ue.Tried, fmt.Sprintf("download %s: %v", url, err))
			return "", false
		}
		if got := sha256Hex(body); got != SARIFSHA256 {
			ue.Tried = append(ue.Tried, fmt.Sprintf("download %s: SHA-256 %s, but the file is pinned to %s", url, got, SARIFSHA256))
			return "", false
		}
		if err := writeAtomic(cached, body); err != nil {
			ue.Tried = append(ue.Tried, fmt.Sprintf("download %s: verified, but it cannot be cached: %v", url, err))
			return "", false
		}
		return cached, true
	})
}

// checkSARIF reads the file at path and compares its digest with the pin.
func checkSARIF(path string) error {
	data, err := readBounded(path)
	if os.IsNotExist(err) {
		return fmt.Errorf("%s: not there", path)
	}
	if err != nil {
		return err
	}
	if got := sha256Hex(data); got != SARIFSHA256 {
		return fmt.Errorf("%s has SHA-256 %s, but the file is pinned to %s; it was altered or is not the published schema", path, got, SARIFSHA256)
	}
	return nil
}
