package cost

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Encoding names a byte-pair encoding.
type Encoding string

// The encodings a Table can be counted in.
const (
	// O200kBase is the encoding of OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series
	// models, and the default.
	O200kBase Encoding = "o200k_base"
	// Cl100kBase is the encoding of GPT-4 and GPT-3.5.
	Cl100kBase Encoding = "cl100k_base"
)

// DefaultEncoding is used when none is named.
const DefaultEncoding = O200kBase

// Encodings lists the supported encodings, the default first.
func Encodings() []Encoding { return []Encoding{O200kBase, Cl100kBase} }

// ParseEncoding accepts an encoding's name; "" is the default.
func ParseEncoding(s string) (Encoding, error) {
	switch Encoding(s) {
	case "":
		return DefaultEncoding, nil
	case O200kBase, Cl100kBase:
		return Encoding(s), nil
	}
	return "", fmt.Errorf("unknown encoding %q: use o200k_base (the default) or cl100k_base", s)
}

// encoder is one encoding's codec, built on first use: building it fills a
// map of some 200,000 tokens, which a program that never counts should not
// pay for.
type encoder struct {
	once  sync.Once
	new   func() *codec.Codec
	codec *codec.Codec
}

// encoders names the codecs' constructors one by one, rather than going
// through the tokenizer's lookup by name, so that the binary carries only
// these two vocabularies (the lookup would link in every encoding).
var encoders = map[Encoding]*encoder{
	O200kBase:  {new: codec.NewO200kBase},
	Cl100kBase: {new: codec.NewCl100kBase},
}

// codecFor returns the encoding's codec. Codecs are safe for concurrent
// use: counting reads the vocabulary and the split expression only.
func codecFor(enc Encoding) (*codec.Codec, error) {
	enc, err := ParseEncoding(string(enc))
	if err != nil {
		return nil, err
	}
	e := encoders[enc]
	e.once.Do(func() { e.codec = e.new() })
	return e.codec, nil
}

// count returns the number of tokens of text in an encoding ("" is the
// default).
func count(enc Encoding, text string) (int, error) {
	c, err := codecFor(enc)
	if err != nil {
		return 0, err
	}
	n, err := c.Count(text)
	if err != nil {
		return 0, fmt.Errorf("counting tokens (%s): %w", enc, err)
	}
	return n, nil
}
