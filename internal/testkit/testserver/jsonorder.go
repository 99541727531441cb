package testserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// This file re-encodes JSON documents with object members in a chosen order.
// The shuffled-N modes use it so that two seeds produce the same surface whose
// schemas differ only in key order on the wire.

// member is one name/value pair of a JSON object, in document order.
type member struct {
	key string
	val any
}

// object is a JSON object that remembers member order.
type object []member

// parseOrdered parses a JSON document keeping object member order. Numbers
// stay json.Number so that their spelling survives re-encoding.
func parseOrdered(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := object{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			val, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{key, val})
		}
		_, err := dec.Token() // '}'
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			val, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, val)
		}
		_, err := dec.Token() // ']'
		return arr, err
	default:
		return tok, nil // string, json.Number, bool or nil
	}
}

// writeOrdered encodes v. When rng is non-nil the members of every object are
// written in an order drawn from rng; otherwise in document order. Array
// element order is never changed (it is meaningful).
func writeOrdered(buf *bytes.Buffer, v any, rng *rand.Rand) {
	switch v := v.(type) {
	case object:
		order := make([]int, len(v))
		for i := range order {
			order[i] = i
		}
		if rng != nil {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		buf.WriteByte('{')
		for n, i := range order {
			if n > 0 {
				buf.WriteByte(',')
			}
			writeScalar(buf, v[i].key)
			buf.WriteByte(':')
			writeOrdered(buf, v[i].val, rng)
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeOrdered(buf, e, rng)
		}
		buf.WriteByte(']')
	default:
		writeScalar(buf, v)
	}
}

func writeScalar(buf *bytes.Buffer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("testserver: encoding %v: %v", v, err)) // scalars always encode
	}
	buf.Write(b)
}

// schemaJSON returns doc as a json.RawMessage, compacted, with object keys
// shuffled by rng when rng is non-nil. doc must be valid JSON (it is always a
// literal in this package, so a bad one is a programming error).
func schemaJSON(doc string, rng *rand.Rand) json.RawMessage {
	v, err := parseOrdered([]byte(doc))
	if err != nil {
		panic(fmt.Sprintf("testserver: bad JSON literal: %v\n%s", err, doc))
	}
	var buf bytes.Buffer
	writeOrdered(&buf, v, rng)
	return json.RawMessage(buf.Bytes())
}
