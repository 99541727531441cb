package capture

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkjson "github.com/segmentio/encoding/json"
)

func TestSlimListAnswer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, line, want string // want "": handed on whole
	}{
		{"tools", `{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"x"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"tools":[],"nextCursor":"x"}}`},
		{"spaces and member order", `{ "result" : { "_meta" : {"k":[1]}, "tools" : [ {"name":"a"} ] } , "id" : 3, "jsonrpc" : "2.0" }`,
			`{ "result" : { "_meta" : {"k":[1]}, "tools" : [] } , "id" : 3, "jsonrpc" : "2.0" }`},
		{"escaped member name", `{"jsonrpc":"2.0","id":3,"result":{"t\u006fols":[{"name":"a"}]}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"t\u006fols":[]}}`},
		{"repeated item member", `{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a"}],"tools":[{"name":"b"}]}}`, ""},
		{"repeated result", `{"jsonrpc":"2.0","id":3,"result":{"tools":[]},"result":{"tools":[{"name":"b"}]}}`, ""},
		{"items not an array", `{"jsonrpc":"2.0","id":3,"result":{"tools":{"name":"a"}}}`, ""},
		{"result not an object", `{"jsonrpc":"2.0","id":3,"result":[{"tools":[1]}]}`, ""},
		{"another list's key", `{"jsonrpc":"2.0","id":3,"result":{"prompts":[{"name":"a"}]}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := inspectLine([]byte(c.line))
			if err != nil {
				t.Fatal(err)
			}
			if !f.jsonrpc2 || string(f.id) != "3" {
				t.Errorf("jsonrpc2 %v, id %q", f.jsonrpc2, f.id)
			}
			got, ok := slimListAnswer([]byte(c.line), f, MethodToolsList)
			// slimResult, for a message already decoded (HTTP), must
			// agree on the result alone; a repeated "result" is the
			// transport's to resolve there, so that case is left out.
			e, _ := parseEnvelope([]byte(c.line))
			gotResult, okResult := slimResult(e.Result, MethodToolsList)
			if c.want == "" {
				if ok {
					t.Errorf("slimmed to %s; want the line handed on whole", got)
				}
				if okResult && c.name != "repeated result" {
					t.Errorf("slimResult slimmed to %s; want the result handed on whole", gotResult)
				}
				return
			}
			if !ok || string(got) != c.want+"\n" {
				t.Errorf("got %q (%v), want %q", got, ok, c.want+"\n")
			}
			w, _ := parseEnvelope([]byte(c.want))
			if !okResult || string(gotResult) != string(w.Result) {
				t.Errorf("slimResult: got %q (%v), want %q", gotResult, okResult, w.Result)
			}
		})
	}
}

func TestInspectLineJSONRPCMember(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"result":{}}`:      true,
		`{"jsonrpc":"2\u002e0","id":1,"result":{}}`: true,
		`{"jsonrpc":"1.0","id":1,"result":{}}`:      false,
		`{"jsonrpc":2.0,"id":1,"result":{}}`:        false,
		`{"JSONRPC":"2.0","id":1,"result":{}}`:      false, // names are exact, as in the SDK's decoder
		`{"level":"info","method":"GET","id":7}`:    false,
		`{"jsonrpc":"2.0","jsonrpc":"2.0","id":1}`:  true, // recorded; the repeated key is reported from the frame
		`{"jsonrpc":"2.0","jsonrpc":null,"id":1}`:   false,
		`{"jsonrpc":"1.0","jsonrpc":"2.0","id":1}`:  true,
		`{"jsonrpc":5,"jsonrpc":"2.0","id":1}`:      false,
	} {
		f, err := inspectLine([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if f.jsonrpc2 != want {
			t.Errorf("%s: jsonrpc2 %v, want %v", line, f.jsonrpc2, want)
		}
	}
	deep := `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `]}}`
	if _, err := inspectLine([]byte(deep)); err == nil {
		t.Error("a line nested 600 deep was walked; it must be handed on whole")
	}
}

// sdkDecodesResult is what the SDK's client does with a list result: one
// decode of the whole result into its type, with its JSON decoder's
// settings.
func sdkDecodesResult(method string, result []byte) error {
	dec := sdkjson.NewDecoder(bytes.NewReader(result))
	dec.DontMatchCaseInsensitiveStructFields()
	switch method {
	case MethodToolsList:
		return dec.Decode(new(mcp.ListToolsResult))
	case MethodPromptsList:
		return dec.Decode(new(mcp.ListPromptsResult))
	case MethodResourcesList:
		return dec.Decode(new(mcp.ListResourcesResult))
	default:
		return dec.Decode(new(mcp.ListResourceTemplatesResult))
	}
}

// The split decode (the SDK decodes the slimmed page, the capture
// decodes the items) refuses exactly what the SDK's whole decode refuses.
func FuzzSplitDecodeAgreesWithTheSDK(f *testing.F) {
	for _, s := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`,
		`{"tools":[{"name":5}]}`,
		`{"tools":[{"Name":5}]}`,
		`{"tools":[null,{"name":"a","annotations":{"readOnlyHint":"yes"}}]}`,
		`{"tools":[{"name":"a"}],"nextCursor":7}`,
		`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}},"outputSchema":3}]}`,
		`{"tools":[{"name":"a","title":["x"]}]}`,
		`{"tools":[{"name":"a","_meta":{"k":1},"icons":[{"src":1}]}]}`,
		`{"tools":[1]}`,
		`{"tools":["a"]}`,
		`{"prompts":[{"name":"p","arguments":[{"name":"x","required":"yes"}]}]}`,
		`{"resources":[{"uri":"file:///a","name":"a","size":"big"}]}`,
		`{"resourceTemplates":[{"uriTemplate":"file:///{x}","name":"t","annotations":{"priority":"high"}}]}`,
	} {
		for _, m := range ListMethods {
			f.Add(m, s)
		}
	}
	f.Fuzz(func(t *testing.T, method, result string) {
		if ItemsKey[method] == "" {
			return
		}
		line := `{"jsonrpc":"2.0","id":1,"result":` + result + `}`
		facts, err := inspectLine([]byte(line))
		if err != nil {
			return // not valid JSON, or handed on whole
		}
		slim, ok := slimListAnswer([]byte(line), facts, method)
		if !ok {
			return
		}
		stub := bytes.TrimSuffix(slim, []byte("\n"))
		stubResult := stub[len(`{"jsonrpc":"2.0","id":1,"result":`) : len(stub)-1]
		whole := sdkDecodesResult(method, []byte(result)) != nil
		split := sdkDecodesResult(method, stubResult) != nil || checkListItems(method, []byte(result)) != nil
		if whole != split {
			t.Errorf("%s %s: the SDK's whole decode refuses: %v; the split decode refuses: %v (stub %s, items: %v)",
				method, result, whole, split, stubResult, checkListItems(method, []byte(result)))
		}
	})
}

// The stdio reader records a list answer whole and hands the SDK the
// answer without its items (any size here; over slimAbove in a capture);
// any other line is handed on as it came.
func TestReaderHandsTheSDKListAnswersWithoutItems(t *testing.T) {
	t.Parallel()
	defer func(n int) { slimAbove = n }(slimAbove)
	slimAbove = 0
	rec := newRecorder(0)
	rec.rawIncoming = true
	rec.slimLists = true
	rec.expectList([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`), MethodToolsList)
	pr, pw := io.Pipe()
	sc := &stdioConn{}
	page := `{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a"},{"name":"b"}]}}`
	other := `{"jsonrpc":"2.0","id":8,"result":{"tools":[{"name":"c"}]}}` // not a list request's id
	go func() {
		for i, line := range []string{page, other} {
			if err := sc.handleLine([]byte("  "+line+"\n"), i+1, pw, rec); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.Close()
	}()
	got, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}` + "\n" + other + "\n"
	if string(got) != want {
		t.Errorf("the SDK was handed\n%s\nwant\n%s", got, want)
	}
	frames := rec.snapshot()
	if len(frames) != 2 || string(frames[0].Data) != page || string(frames[1].Data) != other {
		t.Fatalf("frames %+v: each line must be recorded whole", frames)
	}
	if !rec.wasSlimmed(0) || rec.wasSlimmed(1) {
		t.Errorf("slimmed: frame 0 %v, frame 1 %v; want true, false", rec.wasSlimmed(0), rec.wasSlimmed(1))
	}
	if _, still := rec.listAnswerTo([]byte("7")); still {
		t.Error("the list request's id is still registered after its answer")
	}
}

// parseEnvelope reads what encoding/json reads (its members pointing
// into the frame instead of copied), for member names written exactly;
// encoding/json alone also matches "ID" or "Result", which JSON-RPC does
// not.
func FuzzEnvelopeAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"cursor":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope","data":[1]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"error":null,"result":null}`,
		`{"id":1,"id":2,"method":null,"method":"m"}`,
		`{"method":5}`,
		`{"id":1,"result":{}} x`,
		`[1]`,
		`"x"`,
		`null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, `ABCDEFGHIJKLMNOPQRSTUVWXYZ\`) || !json.Valid([]byte(s)) {
			return
		}
		var want envelope
		wantOK := json.Unmarshal([]byte(s), &want) == nil
		got, ok := parseEnvelope([]byte(s))
		if ok != wantOK {
			t.Fatalf("%s: parsed %v, encoding/json %v", s, ok, wantOK)
		}
		if ok && !reflect.DeepEqual(normal(got), normal(want)) {
			t.Errorf("%s:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

func normal(e envelope) envelope {
	for _, r := range []*json.RawMessage{&e.ID, &e.Params, &e.Result} {
		if len(*r) == 0 {
			*r = nil
		}
	}
	if e.Error != nil && len(e.Error.Data) == 0 {
		e.Error.Data = nil
	}
	return e
}

// inspectLine tells a JSON-RPC line as isJSONRPC (encoding/json) does,
// for member names written exactly (encoding/json alone also matches
// "JSONRPC").
func FuzzJSONRPCMemberAgrees(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","jsonrpc":"1.0"}`, `{"jsonrpc":5,"jsonrpc":"2.0"}`,
		`{"jsonrpc":null}`, `{"jsonrpc":"2\u002e0"}`, `{"level":"info","msg":"x"}`, `{"jsonrpc":["2.0"]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || !json.Valid([]byte(s)) || strings.TrimSpace(s) == "" || strings.TrimSpace(s)[0] != '{' {
			return
		}
		got, err := inspectLine([]byte(strings.TrimSpace(s)))
		if err != nil {
			return // handed to isJSONRPC itself
		}
		if want := isJSONRPC([]byte(strings.TrimSpace(s))); got.jsonrpc2 != want {
			t.Errorf("%s: inspectLine says JSON-RPC %v, isJSONRPC %v", s, got.jsonrpc2, want)
		}
	})
}
