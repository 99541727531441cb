package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Revisions are the protocol revisions a capture can request, newest first.
var Revisions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// LatestRevision is the newest revision the SDK supports, requested by default.
const LatestRevision = "2026-07-28"

// Target is a server to capture: Command, HTTP or InProcess.
type Target interface {
	// Describe names the server without secrets.
	Describe() string
	kind() string
	open(ctx context.Context, rec *recorder, lim Limits) (*session, error)
}

// session is an opened target.
type session struct {
	transport mcp.Transport
	failure   func() error // why the server broke, nil if it did not
	shutdown  func()       // stop the server and reap it
	stderr    func() string
	diags     func() []Diagnostic
	// redact removes secrets (URL query and user info, header values)
	// from error text; nil when there are none.
	redact func(string) string
}

// redactedError hides secrets in a wrapped error's text but keeps it
// reachable for errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// Options for Run.
type Options struct {
	// ProtocolVersion to request; "" requests LatestRevision.
	ProtocolVersion string
	Limits          Limits
	// ClientName and ClientVersion are sent as clientInfo.
	ClientName    string
	ClientVersion string
	// Now is the clock for Timings; nil leaves Timings zero.
	Now func() time.Time
	// Probes are called after the lists, in order (see Probe).
	Probes []Probe
	// TrialRevisions are revisions to try after the capture, each with a
	// handshake of its own in a new session (Capture.Trials). The
	// requested revision itself is skipped.
	TrialRevisions []string
	// HandshakeOnly stops after the handshake: no lists, no probes.
	HandshakeOnly bool
	// NoExtensions declares no extension in the client's capabilities and
	// reads none: the view of a client that knows no extension.
	NoExtensions bool
	// FlatView also captures, in a session of its own, the lists a client
	// that declares no extension receives (Capture.Extensions.Flat): a
	// server SHOULD flatten group-scoped tools into tools/list for it.
	FlatView bool
	// DeferShutdown makes Run return once the session is over, while a
	// stdio server is still being stopped and reaped (up to a few
	// Limits.ShutdownGrace), so that the caller's work after the capture
	// overlaps the shutdown. The caller must then call Capture.Wait (or
	// WaitShutdowns) before it exits: a program that exits first may
	// leave the server running. Without it, Run returns after the reap.
	DeferShutdown bool
}

// Run captures one server at one protocol revision. The returned error is
// a *LimitError, a *ServerError, or a plain error for bad options; when a
// capture fails part-way, the partial capture is returned with the error
// so that the frames seen so far can still be written.
func Run(ctx context.Context, t Target, opts Options) (*Capture, error) {
	if len(opts.TrialRevisions) > 0 {
		trials := opts.TrialRevisions
		opts.TrialRevisions = nil
		c, err := Run(ctx, t, opts)
		if err != nil {
			return c, err
		}
		// One server at a time (see AdoptOrphans): the trials start
		// once this one is reaped, and are reaped before they return.
		c.Wait()
		for _, v := range trials {
			if v != c.RequestedVersion && !slices.ContainsFunc(c.Trials, func(tr Trial) bool { return tr.Revision == v }) {
				c.Trials = append(c.Trials, Try(ctx, t, opts, v))
			}
		}
		return c, nil
	}
	if opts.FlatView && !opts.NoExtensions {
		return runWithFlatView(ctx, t, opts)
	}
	lim := opts.Limits.withDefaults()
	now := opts.Now
	if now == nil {
		now = func() time.Time { return time.Time{} }
	}
	version := opts.ProtocolVersion
	if version == "" {
		version = LatestRevision
	}
	if !slices.Contains(Revisions, version) {
		return nil, fmt.Errorf("protocol version %q is not one mcp-surface knows; use one of %v", version, Revisions)
	}
	name, ver := opts.ClientName, opts.ClientVersion
	if name == "" {
		name = "mcp-surface"
	}
	if ver == "" {
		ver = "dev"
	}

	start := now()
	rec := newRecorder(lim.MaxBytes)
	rec.slimLists = true
	c := &Capture{Target: t.Describe(), Transport: t.kind(), RequestedVersion: version}
	sess, err := t.open(ctx, rec, lim)
	if err != nil {
		return nil, err
	}
	var stopOnce sync.Once
	var shutdownTime time.Duration
	stop := func() {
		stopOnce.Do(func() {
			s := now()
			sess.shutdown()
			shutdownTime = now().Sub(s)
		})
	}
	handedOff := false
	defer func() {
		if !handedOff {
			stop()
		}
	}()

	// No roots, sampling or elicitation: a capture must not invite the
	// server to call back, which could change what it advertises. The
	// extensions it reads it declares (unless NoExtensions).
	clientCaps := &mcp.ClientCapabilities{}
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: ver}, &mcp.ClientOptions{
		Capabilities: clientCaps,
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if !opts.NoExtensions {
		if err := registerExtensions(client, clientCaps); err != nil {
			return nil, err
		}
	}
	rt := &RecordingTransport{Transport: sess.transport, rec: rec, connectCtx: ctx}

	var cs *mcp.ClientSession
	finish := func(err error) (*Capture, error) {
		if err != nil && sess.redact != nil {
			if msg := sess.redact(err.Error()); msg != err.Error() {
				err = &redactedError{msg: msg, err: err}
			}
		}
		if cs != nil {
			_ = cs.Close()
		}
		own := c.Diagnostics
		collect := func(c *Capture) {
			c.Frames = rec.snapshot()
			c.Exchanges = exchanges(c.Frames)
			shareFrames(c.Exchanges, c.Frames)
			c.Diagnostics = append(sess.diags(), own...)
			c.Stderr = sess.stderr()
		}
		if !opts.DeferShutdown {
			stop()
			collect(c)
			c.Timings.Shutdown = shutdownTime
			c.Timings.Total = now().Sub(start)
			return c, err
		}
		// What the session saw is the capture now; the shutdown adds to
		// it only what comes later, which Wait merges.
		collect(c)
		rec.forget(len(c.Frames))
		c.Timings.Total = now().Sub(start)
		p := &pendingShutdown{done: make(chan struct{}), seen: len(c.Frames)}
		c.pending = p
		handedOff = true
		inFlight.Add()
		go func() {
			defer inFlight.Done()
			defer close(p.done)
			stop()
			collect(&p.final)
			p.final.Timings.Shutdown = shutdownTime
			p.final.Timings.Total = now().Sub(start)
		}()
		return c, err
	}

	hctx, cancel := context.WithTimeout(ctx, lim.StartupTimeout)
	cs, err = client.Connect(hctx, rt, &mcp.ClientSessionOptions{ProtocolVersion: version})
	cancel()
	if err != nil {
		cs = nil
		return finish(blame(ctx, hctx, err, rec, sess, "the handshake", &LimitError{
			Limit: LimitStartupTimeout, Value: lim.StartupTimeout.String(),
			Detail: "the server did not complete the handshake in time"}))
	}
	c.Timings.Startup = now().Sub(start)
	if err := c.settleHandshake(rec.snapshot(), cs); err != nil {
		return finish(err)
	}

	if opts.HandshakeOnly {
		_ = cs.Close()
		return finish(nil)
	}
	lists := now()
	caps := advertised(c.HandshakeResult)
	for _, method := range ListMethods {
		if !caps[method] {
			continue
		}
		if err := c.readList(ctx, cs, rec, sess, lim, method); err != nil {
			c.Timings.Lists = now().Sub(lists)
			return finish(err)
		}
	}
	if !opts.NoExtensions {
		if err := c.readExtensions(ctx, cs, rec, sess, lim); err != nil {
			c.Timings.Lists = now().Sub(lists)
			return finish(err)
		}
	}
	c.Timings.Lists = now().Sub(lists)
	if subscribes(c.HandshakeResult) {
		if err := c.trySubscribe(ctx, cs, rec, sess, lim); err != nil {
			return finish(err)
		}
	}
	if completes(c.HandshakeResult) {
		if err := c.tryComplete(ctx, cs, rec, sess, lim); err != nil {
			return finish(err)
		}
	}
	if err := c.runProbes(ctx, cs, rec, sess, lim, opts.Probes); err != nil {
		return finish(err)
	}
	return finish(nil)
}

// completes reports whether the handshake declares completions.
func completes(handshake json.RawMessage) bool {
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(handshake, &r)
	v, ok := r.Capabilities["completions"]
	return ok && string(v) != "null"
}

// tryComplete checks that declared completions answer: one
// completion/complete of the first listed prompt's first argument (else
// the first listed template's first variable) with an empty value, so
// that a later withdrawal of a capability that never worked is judged by
// what a client could do (CapabilityTrials). Nothing to complete, no call.
func (c *Capture) tryComplete(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits) error {
	ref, arg, ok := c.completionTarget()
	if !ok {
		return nil
	}
	ex, err := c.request(ctx, rec, sess, lim, MethodCompletionComplete, func(rctx context.Context) error {
		_, err := cs.Complete(rctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg}})
		return err
	})
	if err != nil {
		return err
	}
	t := CapabilityTrial{Method: MethodCompletionComplete}
	if ex.Error != nil {
		t.Error, t.Code = truncate(ex.Error.Message, 500), ex.Error.Code
	}
	c.CapabilityTrials = append(c.CapabilityTrials, t)
	return nil
}

// completionTarget is the first listed prompt with an argument (and that
// argument's name), else the first listed template with a variable.
func (c *Capture) completionTarget() (*mcp.CompleteReference, string, bool) {
	type prompt struct {
		Name      string  `json:"name"`
		Arguments []named `json:"arguments"`
	}
	for _, pr := range listedItems[prompt](c, MethodPromptsList, "prompts") {
		if pr.Name != "" && len(pr.Arguments) > 0 && pr.Arguments[0].Name != "" {
			return &mcp.CompleteReference{Type: "ref/prompt", Name: pr.Name}, pr.Arguments[0].Name, true
		}
	}
	type template struct {
		URITemplate string `json:"uriTemplate"`
	}
	for _, t := range listedItems[template](c, MethodResourceTemplatesList, "resourceTemplates") {
		if v, ok := firstVariable(t.URITemplate); ok {
			return &mcp.CompleteReference{Type: "ref/resource", URI: t.URITemplate}, v, true
		}
	}
	return nil, "", false
}

// firstVariable is the name of the first variable of an RFC 6570 URI
// template ("{+path}" → "path", "{?a,b}" → "a").
func firstVariable(tmpl string) (string, bool) {
	i := strings.IndexByte(tmpl, '{')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(tmpl[i:], '}')
	if j < 0 {
		return "", false
	}
	expr := strings.TrimLeft(tmpl[i+1:i+j], "+#./;?&")
	name, _, _ := strings.Cut(expr, ",")
	name, _, _ = strings.Cut(name, ":")
	name = strings.TrimSuffix(name, "*")
	return name, name != ""
}

// Try opens a session at one revision, handshake only, and reports
// whether the server accepted it. It never fails: a failed handshake is
// the trial's outcome.
func Try(ctx context.Context, t Target, opts Options, revision string) Trial {
	opts.ProtocolVersion, opts.HandshakeOnly, opts.Probes, opts.TrialRevisions = revision, true, nil, nil
	opts.DeferShutdown = false
	tr := Trial{Revision: revision}
	c, err := Run(ctx, t, opts)
	switch {
	case err != nil:
		tr.Error = truncate(err.Error(), 500)
	case c.ProtocolVersion != revision:
		tr.Negotiated = c.ProtocolVersion
		tr.Error = fmt.Sprintf("asked for %s, the server answered with %s", revision, c.ProtocolVersion)
	default:
		tr.Negotiated = c.ProtocolVersion
	}
	return tr
}

// blame turns an SDK error into the most useful explanation, checking
// the causes in the order that keeps the real one: a limit we enforce, the
// caller's cancellation, the deadline, an answer the client refused, and
// only then the server's own failure (invalid output, its exit).
// The order matters because the SDK closes the server's stdin whenever it
// gives up, and a server that exits on EOF then looks as if it had exited
// on its own.
func blame(parent, ctx context.Context, err error, rec *recorder, sess *session, during string, timeout *LimitError) error {
	if lerr := rec.limit(); lerr != nil {
		var le *LimitError
		if errors.As(lerr, &le) {
			cp := *le
			cp.Method = during
			return &cp
		}
		return lerr
	}
	if parent.Err() != nil {
		return fmt.Errorf("%s: interrupted: %w", during, parent.Err())
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		cp := *timeout
		cp.Method = during
		return &cp
	}
	rerr, certain := refused(rec.snapshot(), err, sess)
	if certain {
		return during0(rerr, during)
	}
	// The SDK's error after an answer may also come from a server that
	// broke right after it (a crash, invalid output): that is the cause,
	// unless the server only exited cleanly once the SDK closed its stdin.
	if ferr := sess.failure(); ferr != nil {
		var se *ServerError
		if rerr == nil || !errors.As(ferr, &se) || !se.cleanExit {
			return during0(ferr, during)
		}
	}
	if rerr != nil {
		return during0(rerr, during)
	}
	return fmt.Errorf("%s: %w", during, err)
}

// during0 names the step a server error happened in.
func during0(err error, during string) error {
	var se *ServerError
	if errors.As(err, &se) {
		se.During = during
	}
	return err
}

// refused explains an SDK error that came after the server answered the
// last request: the server did answer, so its exit (the SDK closes the
// session on such an error) is not the cause. certain is set when the
// answer itself says what went wrong (an error, an unknown protocol
// version); otherwise the SDK's error may come from what followed.
func refused(frames []Frame, sdkErr error, sess *session) (err error, certain bool) {
	exs := exchanges(frames)
	if len(exs) == 0 {
		return nil, false
	}
	ex := exs[len(exs)-1]
	if ex.ResponseFrame < 0 {
		return nil, false
	}
	var reason string
	switch {
	case ex.Error != nil:
		certain = true
		reason = fmt.Sprintf("answered %s with error %d: %s", ex.Method, ex.Error.Code, truncate(ex.Error.Message, 300))
	case strings.Contains(sdkErr.Error(), "unsupported protocol version"):
		// The SDK's error type for it is unexported.
		certain = true
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(ex.Result, &r)
		reason = fmt.Sprintf("answered %s with protocolVersion %q, which is not a revision the client supports (%s)",
			ex.Method, truncate(r.ProtocolVersion, 80), strings.Join(Revisions, ", "))
	default:
		reason = fmt.Sprintf("answered %s (frame %d) with something the MCP Go SDK refused: %s", ex.Method, ex.ResponseFrame, truncate(sdkErr.Error(), 300))
	}
	return &ServerError{Reason: reason, Stderr: sess.stderr(), Err: sdkErr}, certain
}

// settleHandshake finds which handshake the session settled on and keeps
// its raw result. A server/discover answered before an initialize stays in
// the exchanges (Discovered); the diagnostic says why initialize was used.
func (c *Capture) settleHandshake(frames []Frame, cs *mcp.ClientSession) error {
	exs := exchanges(frames)
	var initialize *Exchange
	for i := range exs {
		if exs[i].Method == HandshakeInitialize {
			initialize = &exs[i]
		}
	}
	discover, discovered := lastDiscover(exs)
	switch {
	case initialize != nil && initialize.Result != nil:
		c.Handshake = HandshakeInitialize
		c.HandshakeResult = initialize.Result
		if discovered {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagHandshakeFallback, Method: methodDiscover,
				Message: fallbackMessage(discover), Frame: discover.ResponseFrame})
		}
	case discovered && discover.Result != nil:
		c.Handshake = HandshakeDiscover
		c.HandshakeResult = discover.Result
	default:
		return errors.New("handshake: no handshake result was recorded")
	}
	if ir := cs.InitializeResult(); ir != nil {
		c.ProtocolVersion = ir.ProtocolVersion
	}
	return nil
}

// advertised reports which list methods the handshake's capabilities offer.
func advertised(handshake json.RawMessage) map[string]bool {
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(handshake, &r)
	on := func(k string) bool {
		v, ok := r.Capabilities[k]
		return ok && string(v) != "null"
	}
	return map[string]bool{
		MethodToolsList:             on("tools"),
		MethodPromptsList:           on("prompts"),
		MethodResourcesList:         on("resources"),
		MethodResourceTemplatesList: on("resources"),
	}
}

// subscribes reports whether the handshake advertises resources.subscribe.
func subscribes(handshake json.RawMessage) bool {
	var r struct {
		Capabilities struct {
			Resources *struct {
				Subscribe bool `json:"subscribe"`
			} `json:"resources"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(handshake, &r)
	return r.Capabilities.Resources != nil && r.Capabilities.Resources.Subscribe
}

// trySubscribe checks that an advertised resources.subscribe answers: a
// capability that was never implemented (-32601) can later be withdrawn
// without breaking anyone, and validation reports the claim. It subscribes
// to the first listed resource and unsubscribes at once. Sessions of
// 2026-07-28 and later subscribe through a long-lived stream instead,
// which a capture does not open.
func (c *Capture) trySubscribe(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits) error {
	uris := c.listedResourceURIs()
	if len(uris) == 0 || c.ProtocolVersion >= "2026-07-28" {
		return nil
	}
	ex, err := c.request(ctx, rec, sess, lim, MethodResourcesSubscribe, func(rctx context.Context) error {
		return cs.Subscribe(rctx, &mcp.SubscribeParams{URI: uris[0]})
	})
	if err != nil {
		return err
	}
	if ex.Error != nil {
		c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagSubscribeError, Method: MethodResourcesSubscribe,
			Message: fmt.Sprintf("resources/subscribe answered with error %d: %s", ex.Error.Code, ex.Error.Message),
			Frame:   ex.ResponseFrame, RPCCode: ex.Error.Code})
		c.CapabilityTrials = append(c.CapabilityTrials, CapabilityTrial{Method: MethodResourcesSubscribe,
			Error: truncate(ex.Error.Message, 500), Code: ex.Error.Code})
		return nil
	}
	c.CapabilityTrials = append(c.CapabilityTrials, CapabilityTrial{Method: MethodResourcesSubscribe})
	rctx, cancel := context.WithTimeout(ctx, lim.RequestTimeout)
	_ = cs.Unsubscribe(rctx, &mcp.UnsubscribeParams{URI: uris[0]})
	cancel()
	return nil
}

// readList reads one list to its last page, following nextCursor from the
// raw result (not from the SDK's struct, which may have rejected it).
func (c *Capture) readList(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits, method string) error {
	seen := map[string]int{}
	cursor := ""
	for page := 0; ; page++ {
		if page >= lim.MaxPages {
			return &LimitError{Limit: LimitPageCount, Value: fmt.Sprint(lim.MaxPages), Method: method,
				Detail: fmt.Sprintf("the server kept returning nextCursor after %d pages", lim.MaxPages)}
		}
		before := rec.len()
		rctx, cancel := context.WithTimeout(ctx, lim.RequestTimeout)
		sdkErr := listPage(rctx, cs, method, cursor)
		cancel()
		ex, ok := lastExchange(rec.snapshot()[before:], wireMethod(method))
		if !ok || ex.ResponseFrame < 0 {
			if sdkErr == nil {
				return fmt.Errorf("%s: the SDK answered page %d without asking the server (cache); cannot record it", method, page+1)
			}
			return blame(ctx, rctx, sdkErr, rec, sess, method, &LimitError{
				Limit: LimitRequestTimeout, Value: lim.RequestTimeout.String(),
				Detail: fmt.Sprintf("no answer to page %d", page+1)})
		}
		if ex.Error != nil {
			// Not fatal here: whether a failed list ends the capture is
			// the caller's choice (ListFailures, IncompleteError).
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagListError, Method: method,
				Message: fmt.Sprintf("%s page %d answered with error %d: %s", method, page+1, ex.Error.Code, ex.Error.Message),
				Frame:   ex.ResponseFrame, RPCCode: ex.Error.Code, Page: page + 1})
			return nil
		}
		if ex.Batched {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagBatch, Method: method,
				Message: fmt.Sprintf("the server answered %s page %d inside a JSON-RPC batch (a JSON array); %s", method, page+1, BatchNote(c.ProtocolVersion)),
				Frame:   ex.ResponseFrame})
		}
		c.Pages = append(c.Pages, Page{Method: method, Index: page, Cursor: cursor, Result: ex.Result, Frame: ex.ResponseFrame})
		if sdkErr == nil && rec.wasSlimmed(ex.ResponseFrame) {
			// The SDK decoded the page without its items; decode them.
			sdkErr = checkListItems(method, ex.Result)
		}
		if sdkErr != nil {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagSDKRejected, Method: method,
				Message: fmt.Sprintf("the MCP Go SDK rejected %s page %d; its raw bytes were kept", method, page+1),
				Detail:  truncate(sdkErr.Error(), 500), Frame: ex.ResponseFrame})
		}
		var r struct {
			NextCursor *string `json:"nextCursor"`
		}
		_ = json.Unmarshal(ex.Result, &r)
		if r.NextCursor == nil || *r.NextCursor == "" {
			return nil
		}
		next := *r.NextCursor
		if p, dup := seen[next]; dup || next == cursor {
			return &LimitError{Limit: LimitRepeatedCursor, Value: fmt.Sprintf("%q", truncate(next, 80)), Method: method,
				Detail: fmt.Sprintf("page %d returned the cursor already returned by page %d, so paging would never end (%v)", page+1, p+1, ErrRepeatedCursor)}
		}
		seen[next] = page
		cursor = next
	}
}

func listPage(ctx context.Context, cs *mcp.ClientSession, method, cursor string) error {
	var err error
	switch method {
	case MethodToolsList:
		_, err = cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
	case MethodPromptsList:
		_, err = cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
	case MethodResourcesList:
		_, err = cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
	case MethodResourceTemplatesList:
		_, err = cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
	case MethodSkillsList, MethodGroupsList, GroupsListMethod(ExtToolbox):
		err = extListPage(ctx, cs, method, cursor)
	default:
		err = fmt.Errorf("unknown list method %q", method)
	}
	return err
}

// lastExchange is the last request of method among frames, with its response.
func lastExchange(frames []Frame, method string) (Exchange, bool) {
	exs := exchanges(frames)
	shareFrames(exs, frames)
	for i := len(exs) - 1; i >= 0; i-- {
		if exs[i].Method == method {
			return exs[i], true
		}
	}
	return Exchange{}, false
}
