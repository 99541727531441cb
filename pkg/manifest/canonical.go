package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// Canonicalize renders raw JSON in canonical form (see the package doc).
// It refuses invalid JSON, trailing data and nesting deeper than 512.
func Canonicalize(data []byte) ([]byte, error) {
	return canonjson.Canonicalize(data)
}

// CanonicalizeValue renders any JSON value (as produced by encoding/json:
// maps, slices, strings, float64 or json.Number, bool, nil, or a
// json.RawMessage) in canonical form, so that two schemas can be compared
// for semantic equality by comparing bytes.
func CanonicalizeValue(v any) ([]byte, error) {
	return canonjson.CanonicalizeValue(v)
}

// hash is the hex SHA-256 of canonical bytes.
func hash(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// decode parses JSON keeping numbers exact (json.Number).
func decode(data []byte) (any, error) {
	return canonjson.Decode(data)
}

// decodeStd is decode through encoding/json, the reference the fuzz test
// compares decode with.
func decodeStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: unexpected data after the value")
	}
	return v, nil
}

// Indent pretty-prints canonical JSON for the snapshot file (two spaces,
// trailing newline). Content bytes are unchanged.
func Indent(canonical []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, canonical, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
