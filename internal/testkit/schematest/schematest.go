// Package schematest compiles a JSON Schema held in memory with the
// validator's defaults (2020-12 unless the document's $schema says
// otherwise): the oracle of the schema comparison's tests (pkg/diff,
// pkg/diff/schemadiff), sharing nothing with the engines they test.
package schematest

import (
	"bytes"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles the schema document doc; nil and the error when doc
// is not JSON or not a schema.
func Compile(doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///s.json", v); err != nil {
		return nil, err
	}
	return c.Compile("mem:///s.json")
}
