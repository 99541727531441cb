package canonjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

// The definition vectors and the invalid ones of "tool definition hash,
// version 1" (docs/tool-definition-hash-vectors.json in the GitHub
// repository GautamTalksDev/mcp-pin, MIT license), reconstructed here: the
// input is JSON text as the file gives it, to be parsed by us; canonical
// and hash are the published outputs. Two of them are RFC 8785's own
// examples (sections 3.2.2 and 3.2.3). The set and instructions vectors
// are in pkg/manifest.
var jcsVectors = []struct {
	about, input, canonical, hash string
}{
	{
		"a tool, with whitespace and its members out of order",
		"{\n  \"inputSchema\": { \"type\": \"object\", \"properties\": { \"city\": { \"type\": \"string\" } }, \"required\": [\"city\"] },\n  \"name\": \"weather\",\n  \"description\": \"Get the current weather for a city.\"\n}",
		`{"description":"Get the current weather for a city.","inputSchema":{"properties":{"city":{"type":"string"}},"required":["city"],"type":"object"},"name":"weather"}`,
		"f6d1913a45f2a5ea95ceb161b4e08eed245a1808044f3a358705d2641b6fb37d",
	},
	{
		"members the recipe does not name are kept: title, icons, outputSchema, annotations, _meta",
		`{"name":"search","title":"Search","description":"Search the docs.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false},"icons":[{"src":"https://example.com/i.png","mimeType":"image/png"}],"_meta":{"com.example/x":1}}`,
		`{"_meta":{"com.example/x":1},"annotations":{"openWorldHint":false,"readOnlyHint":true},"description":"Search the docs.","icons":[{"mimeType":"image/png","src":"https://example.com/i.png"}],"inputSchema":{"properties":{"q":{"type":"string"}},"type":"object"},"name":"search","outputSchema":{"type":"object"},"title":"Search"}`,
		"f7948f962adc11825733e67918e78f304d183b1271ba7ab2647857ac2369ba2e",
	},
	{
		"RFC 8785 section 3.2.3: names sort by UTF-16 code units (the emoji's D83D before U+FB33)",
		"{\n  \"\\u20ac\": \"Euro Sign\",\n  \"\\r\": \"Carriage Return\",\n  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n  \"1\": \"One\",\n  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n  \"\\u0080\": \"Control\",\n  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n}",
		"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		"5e321556d22018a9656991a9e94f77ec175fa193e52a2429d312f8419ec8b08c",
	},
	{
		"RFC 8785 section 3.2.2: numbers as ECMAScript writes them, and string escapes",
		"{\n  \"numbers\": [333333333.33333329, 1E30, 4.50,\n              2e-3, 0.000000000000000000000000001],\n  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n  \"literals\": [null, true, false]\n}",
		"{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}",
		"2d5e01a318d0f0879ab568c4be289c8b1f64ef8921a53c6277d5e069978baacb",
	},
	{
		"numbers in a schema: 1.0 is 1, 1E3 is 1000, -0 is 0, 1e-7 keeps its exponent",
		`{"name":"n","inputSchema":{"type":"object","properties":{"k":{"type":"number","minimum":1.0,"maximum":1E3,"multipleOf":0.000001,"default":-0,"exclusiveMinimum":1e-7}}}}`,
		`{"inputSchema":{"properties":{"k":{"default":0,"exclusiveMinimum":1e-7,"maximum":1000,"minimum":1,"multipleOf":0.000001,"type":"number"}},"type":"object"},"name":"n"}`,
		"913c935b054edcf4398e3e5de60422a1f057f7970ff214a25bc48eb67a6d810f",
	},
	{
		"an integer past 2^53 is read as the nearest double",
		`{"name":"big","inputSchema":{"type":"object","properties":{"id":{"type":"integer","maximum":12345678901234567890}}}}`,
		`{"inputSchema":{"properties":{"id":{"maximum":12345678901234567000,"type":"integer"}},"type":"object"},"name":"big"}`,
		"6c77e7c22b65775684e716148e5f5364ffedfbb7333741f0cc0650da9ecc2167",
	},
	{
		"controls escaped (ESC as \\u001b); U+2028, / and non-ASCII as themselves",
		`{"name":"esc","description":"Line one\nTab\there \u001b[2J and \u2028 then \/ and \ud83d\ude00 caf\u00e9"}`,
		"{\"description\":\"Line one\\nTab\\there \\u001b[2J and \u2028 then / and \U0001F600 caf\u00e9\",\"name\":\"esc\"}",
		"f1960a7b888f4e220e0085c0edf1611809caec6db62ad93be713cdd43d4df200",
	},
	{
		"an unpaired surrogate is written as a lowercase \\u escape, as JSON.stringify does",
		`{"name":"odd","description":"x\uDEADy"}`,
		`{"description":"x\udeady","name":"odd"}`,
		"6211d555f8b4f4436e8b449e341f7c161a47ada0d21e6621e1ec6bd8e51f8634",
	},
}

func TestJCSPublishedVectors(t *testing.T) {
	for _, v := range jcsVectors {
		got, err := JCS([]byte(v.input))
		if err != nil {
			t.Errorf("%s: %v", v.about, err)
			continue
		}
		if string(got) != v.canonical {
			t.Errorf("%s:\n got %s\nwant %s", v.about, got, v.canonical)
		}
		if h, _ := JCSHash([]byte(v.input)); h != v.hash {
			t.Errorf("%s: hash %s, want %s", v.about, h, v.hash)
		}
	}
}

func TestJCSRefusesARepeatedMember(t *testing.T) {
	// The published invalid vectors: no canonical form, no hash.
	for _, in := range []string{
		`{"name":"x","description":"a","description":"b"}`,
		`{"name":"x","inputSchema":{"type":"object","type":"string"}}`,
	} {
		if _, err := JCSHash([]byte(in)); !errors.Is(err, ErrRepeatedMember) {
			t.Errorf("%s: %v, want ErrRepeatedMember", in, err)
		}
	}
	for _, in := range []string{`{"a":1e400}`, `{"a":1`, `{"a":1} x`, strings.Repeat("[", MaxDepth+2)} {
		if _, err := JCS([]byte(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}

func TestESNumber(t *testing.T) {
	tabletest.MapNoError(t, "ESNumber", ESNumber, map[string]string{
		"0": "0", "-0": "0", "-0.0e5": "0", "1.5": "1.5", "100": "100", "1e21": "1e+21", "1e20": "100000000000000000000",
		"123456789012345678901": "123456789012345680000", "0.000001": "0.000001", "1e-7": "1e-7", "-1.25e-10": "-1.25e-10",
		"5e-324": "5e-324", "1.7976931348623157e308": "1.7976931348623157e+308", "0.1": "0.1", "9007199254740993": "9007199254740992",
	})
}
