package capture

import (
	"encoding/json"
	"fmt"
	"iter"
	"reflect"
	"time"
)

// Direction of a frame, seen from the client.
type Direction string

const (
	Sent     Direction = "send" // client → server
	Received Direction = "recv" // server → client
)

// Frame is one JSON-RPC message as it crossed the transport.
type Frame struct {
	// Seq numbers frames from 0 in the order the recorder saw them.
	Seq  int             `json:"seq"`
	Dir  Direction       `json:"dir"`
	Data json.RawMessage `json:"data"`
}

// Handshake names how the session was established.
const (
	HandshakeInitialize = "initialize"
	HandshakeDiscover   = "server/discover"
)

// List methods, in the order they are read.
const (
	MethodToolsList             = "tools/list"
	MethodPromptsList           = "prompts/list"
	MethodResourcesList         = "resources/list"
	MethodResourceTemplatesList = "resources/templates/list"
)

// ListMethods is every list a capture reads when its capability is advertised.
var ListMethods = []string{MethodToolsList, MethodPromptsList, MethodResourcesList, MethodResourceTemplatesList}

// ItemsKey is the key of the item array in each list method's result.
var ItemsKey = map[string]string{
	MethodToolsList:             "tools",
	MethodPromptsList:           "prompts",
	MethodResourcesList:         "resources",
	MethodResourceTemplatesList: "resourceTemplates",
}

// Page is one page of one list, exactly as received.
type Page struct {
	Method string `json:"method"`
	// Index of the page within its list, from 0.
	Index int `json:"index"`
	// Cursor sent to obtain this page ("" for the first).
	Cursor string `json:"cursor,omitempty"`
	// Result is the raw "result" member of the response frame.
	Result json.RawMessage `json:"result"`
	// Frame is the Seq of the response frame.
	Frame int `json:"frame"`
}

// RPCError is a JSON-RPC error object as received.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Exchange is one request and its response, paired by id. Probes and the
// handshake are exchanges too.
type Exchange struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Exactly one of Result and Error is set when a response arrived.
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
	// RequestFrame and ResponseFrame are Seq numbers (-1 when absent).
	RequestFrame  int `json:"requestFrame"`
	ResponseFrame int `json:"responseFrame"`
	// Batched: the response came inside a JSON-RPC batch (a JSON array).
	Batched bool `json:"batched,omitempty"`
}

// BatchRevision is the one protocol revision whose schema has JSON-RPC
// batches (JSONRPCBatchResponse); 2025-06-18 removed them, and 2024-11-05
// never defined them.
const BatchRevision = "2025-03-26"

// BatchNote says what a batched answer means under a negotiated revision.
func BatchNote(revision string) string {
	if revision == BatchRevision {
		return "revision " + BatchRevision + " allows batches, but the client sent no batch to answer"
	}
	return fmt.Sprintf("revision %s has no JSON-RPC batches (only %s had them; 2025-06-18 removed them), so clients may drop the answer", revision, BatchRevision)
}

// Diagnostic codes: the capture's own kinds of observation, which
// pkg/spec maps onto rule IDs when it turns them into findings. They are
// the capture's words, never a rule's ID: renaming a rule renames none.
const (
	// DiagStdoutNoise: a line on a stdio server's stdout that is not JSON-RPC.
	DiagStdoutNoise = "stdout-noise"
	// DiagSDKRejected: the SDK refused to decode a result; raw bytes kept.
	DiagSDKRejected = "sdk-rejected"
	// DiagBatch: a list page was answered inside a JSON-RPC batch.
	DiagBatch = "batch"
	// DiagListError: a list the server advertised answered with an error.
	DiagListError = "list-error"
	// DiagHandshakeFallback: server/discover failed and initialize was used.
	DiagHandshakeFallback = "discover-fallback"
	// DiagProbeBounded: a probe over every listed resource was cut at its bound.
	DiagProbeBounded = "probe-bounded"
	// DiagEscapedProcesses: a stdio server left processes outside its
	// process group at shutdown (killed, or named when they could not be).
	DiagEscapedProcesses = "escaped-processes"
	// DiagSubscribeError: resources.subscribe is advertised, but
	// resources/subscribe answered with an error.
	DiagSubscribeError = "subscribe-error"
)

// MethodResourcesSubscribe is tried once when resources.subscribe is
// advertised (and undone with resources/unsubscribe when it works).
const MethodResourcesSubscribe = "resources/subscribe"

// CodeMethodNotFound is JSON-RPC's "Method not found".
const CodeMethodNotFound = -32601

// Diagnostic is something the capture noticed that is not fatal.
type Diagnostic struct {
	Code    string `json:"code"`
	Method  string `json:"method,omitempty"`
	Message string `json:"message"`
	// Detail is the offending text (a stdout line, an SDK error), bounded.
	Detail string `json:"detail,omitempty"`
	Frame  int    `json:"frame,omitempty"`
	// RPCCode is the JSON-RPC error code of an error answer (list-error,
	// subscribe-error); 0 otherwise.
	RPCCode int64 `json:"rpcCode,omitempty"`
	// Page is the page (from 1) of a list-error; 0 otherwise.
	Page int `json:"page,omitempty"`
}

// Capture is everything recorded from one session with one server at one
// requested protocol revision.
type Capture struct {
	// Target describes the server without secrets: a command line, or a
	// URL with its query and user info removed.
	Target string `json:"target"`
	// Transport is stdio, http, sse or inprocess.
	Transport string `json:"transport"`
	// RequestedVersion is the revision the client asked for.
	RequestedVersion string `json:"requestedVersion"`
	// Handshake is HandshakeInitialize or HandshakeDiscover.
	Handshake string `json:"handshake"`
	// ProtocolVersion is the revision the session settled on.
	ProtocolVersion string `json:"protocolVersion"`
	// HandshakeResult is the raw result of the handshake that succeeded
	// (an InitializeResult, or a DiscoverResult for server/discover).
	HandshakeResult json.RawMessage `json:"handshakeResult"`
	// Pages of every list read, in order.
	Pages []Page `json:"pages"`
	// Exchanges pairs every request with its response, in request order.
	Exchanges []Exchange `json:"exchanges"`
	// Frames is every JSON-RPC frame in both directions, in order.
	Frames []Frame `json:"frames"`
	// Probes are the declared calls made after the lists, in order. Their
	// results are never part of a snapshot's fingerprints.
	Probes []ProbeResult `json:"probes,omitempty"`
	// Trials are handshakes at other revisions than RequestedVersion, each
	// in its own session (Options.TrialRevisions, or the sibling captures
	// of a capture asked for several revisions): the evidence that a
	// revision is or is not still accepted, which a server's own list of
	// supported versions is not.
	Trials []Trial `json:"trials,omitempty"`
	// CapabilityTrials are the calls made to learn whether resources.subscribe
	// and completions work, in the order made.
	CapabilityTrials []CapabilityTrial `json:"capabilityTrials,omitempty"`
	// Extensions is what was read of the extensions the server declares
	// (see ExtensionCapture); nil when the capture declared none.
	Extensions *ExtensionCapture `json:"extensions,omitempty"`
	// Diagnostics are non-fatal observations, in the order seen.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Stderr is the last bytes (at most Limits.StderrTail) the server wrote
	// to stderr, for stdio targets.
	Stderr string `json:"stderr,omitempty"`
	// Timings measured by the capture; never part of a snapshot.
	Timings Timings `json:"timings"`

	// pending is set while a deferred shutdown runs (see Wait).
	pending *pendingShutdown
}

// CapabilityTrial is the outcome of the one call a capture makes to learn
// whether a declared capability works: resources/subscribe (when
// resources.subscribe is declared and a resource is listed) and
// completion/complete (when completions is declared and a prompt argument
// or a template variable is listed). Both are safe: a subscription is
// undone at once, a completion changes nothing.
type CapabilityTrial struct {
	// Method is MethodResourcesSubscribe or MethodCompletionComplete.
	Method string `json:"method"`
	// Error is the JSON-RPC error the server answered with, bounded; ""
	// when the call worked.
	Error string `json:"error,omitempty"`
	// Code is that error's code; 0 when the call worked.
	Code int64 `json:"code,omitempty"`
}

// Trial is the outcome of one handshake at one requested revision.
type Trial struct {
	// Revision is the revision requested.
	Revision string `json:"revision"`
	// Negotiated is the revision the session settled on ("" when the
	// handshake failed).
	Negotiated string `json:"negotiated,omitempty"`
	// Error says why the handshake failed, bounded; "" when it succeeded.
	Error string `json:"error,omitempty"`
}

// Accepted reports whether the server accepted the revision itself
// rather than answering with another one or failing.
func (t Trial) Accepted() bool { return t.Error == "" && t.Negotiated == t.Revision }

// Timings of a capture.
type Timings struct {
	Startup  time.Duration `json:"startup"`  // from launch to the handshake's result
	Lists    time.Duration `json:"lists"`    // all list pages
	Shutdown time.Duration `json:"shutdown"` // from close to the process reaped
	Total    time.Duration `json:"total"`
}

// PagesOf returns the pages of one list method, in order.
func (c *Capture) PagesOf(method string) []Page {
	var out []Page
	for _, p := range c.Pages {
		if p.Method == method {
			out = append(out, p)
		}
	}
	return out
}

// listedItems yields the items of every page of the list method, in
// order, each with its page: the array under the result's key items,
// each item decoded as T. The page is decoded as a struct with that one
// field, as a typed read of it would be (the key matched as encoding/json
// matches it; what does not decode is left zero and passed over).
func listedItems[T any](c *Capture, method, items string) iter.Seq2[Page, T] {
	page := reflect.StructOf([]reflect.StructField{{Name: "Items", Type: reflect.TypeFor[[]T](), Tag: reflect.StructTag(`json:"` + items + `"`)}})
	return func(yield func(Page, T) bool) {
		for _, p := range c.PagesOf(method) {
			r := reflect.New(page)
			_ = json.Unmarshal(p.Result, r.Interface())
			for _, it := range r.Elem().Field(0).Interface().([]T) {
				if !yield(p, it) {
					return
				}
			}
		}
	}
}

// named and addressed are the one field of a listed item a capture reads
// again: its name, its URI.
type (
	named struct {
		Name string `json:"name"`
	}
	addressed struct {
		URI string `json:"uri"`
	}
)
