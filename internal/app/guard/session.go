package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// Mode is what the guard does with a risky or breaking change.
type Mode string

// The modes of --on-change.
const (
	// ModeBlock leaves the item out of what the client receives and
	// refuses calls to it (the default).
	ModeBlock Mode = "block"
	// ModeFail ends the session at the first such change.
	ModeFail Mode = "fail"
	// ModeWarn passes everything and logs each change.
	ModeWarn Mode = "warn"
)

// Modes lists the modes, the default first.
var Modes = []Mode{ModeBlock, ModeFail, ModeWarn}

// ReviewCommand is the command that shows a team what changed.
const ReviewCommand = "mcp-surface lock --check"

// ErrorCode is the JSON-RPC error code of the guard's own answers (in the
// range JSON-RPC leaves to implementations).
const ErrorCode = -32001

// ErrChanged ends a session under ModeFail: the server changed in a way
// the lock does not allow.
var ErrChanged = errors.New("the server's surface changed since it was locked")

// Options configure a Session.
type Options struct {
	// Entry is the server's lock entry; All the whole lock (for
	// shadowing across servers; nil: none).
	Entry *lock.Entry
	All   *lock.Lock
	Mode  Mode
	// Version is mcp-surface's version, for the comparison's report.
	Version string
	// Log receives every decision (nil: none).
	Log *Logger
}

// Out is what the session makes of one message.
type Out struct {
	// Forward goes on to the other side; nil: nothing.
	Forward []byte
	// Answers go back to the side the message came from: the guard's own
	// replies (a refused call).
	Answers [][]byte
	// End, when set, ends the session once Forward and Answers are
	// written (ErrChanged under ModeFail).
	End error
}

// Session follows one client's session with one server: it is fed every
// message from either side, whole (one JSON-RPC message or batch, without
// its line end), and says what to pass on. It knows nothing of the
// transport. Safe for concurrent use by the two directions.
type Session struct {
	opts Options
	j    judge

	mu      sync.Mutex
	pending map[string]request // the client's open requests the guard checks the answers of, by id
	// seen holds what the session's listings made of each item: subject
	// kind → identity → its state. Items the lock holds are always kept
	// (the lock bounds them); the server's other items up to maxSeenBytes.
	seen      map[string]map[string]seenItem
	seenBytes int
	// answered are the ids of the last maxPending checked answers, oldest
	// first, so that a second answer to one is dropped, not passed
	// unchecked; a new request of the client with the id frees it.
	answered     map[string]bool
	answeredKeys []string
}

// seenItem is an item as this session's last listing of it served it.
type seenItem struct {
	blocked bool
	v       verdict // why, when blocked
}

// maxPending bounds the client's requests the guard waits for the answer
// of: a client that sends listings the server never answers gets the
// guard's error once this many are open, not unbounded memory.
const maxPending = 1024

// maxSeenBytes bounds what seen holds of the items the lock does not.
const maxSeenBytes = 16 << 20

// NewSession starts the follow of one session.
func NewSession(o Options) *Session {
	if o.Mode == "" {
		o.Mode = ModeBlock
	}
	return &Session{opts: o, j: judge{entry: o.Entry, all: o.All, version: o.Version},
		pending: map[string]request{}, seen: map[string]map[string]seenItem{}, answered: map[string]bool{}}
}

// request is an open request of the client: its method, and the item it
// names (tools/call, prompts/get, resources/read).
type request struct {
	method, name string
}

// idKey is the key of a request id in pending: the id's value, not its
// spelling, so that an answer whose id the client matches (1.0 for 1,
// "\u0031" for "1") is matched here too and never passes unchecked.
func idKey(id []byte) string {
	id = bytes.TrimSpace(id)
	if len(id) > 1 && id[0] == '"' {
		return "s" + canonjson.Unquote(id[1:len(id)-1])
	}
	if n, err := canonjson.Number(string(id)); err == nil {
		return "n" + n
	}
	return "r" + string(id)
}

// FromClient handles a message from the client.
func (s *Session) FromClient(msg []byte) Out {
	if isBatch(msg) {
		return s.batch(msg, s.fromClient)
	}
	return s.fromClient(msg)
}

// FromServer handles a message from the server.
func (s *Session) FromServer(msg []byte) Out {
	if isBatch(msg) {
		return s.batch(msg, s.fromServer)
	}
	return s.fromServer(msg)
}

// batch handles each message of a batch: what is forwarded stays a batch
// (the original bytes when nothing changed), the guard's answers go back
// one by one.
func (s *Session) batch(msg []byte, one func([]byte) Out) Out {
	elems, err := arrayElements(msg, span{0, len(msg)})
	if err != nil || len(elems) == 0 {
		return Out{Forward: msg}
	}
	var out Out
	var parts [][]byte
	same := true
	for _, e := range elems {
		o := one(msg[e.Start:e.End])
		out.Answers = append(out.Answers, o.Answers...)
		if out.End == nil {
			out.End = o.End
		}
		if o.Forward == nil {
			same = false
			continue
		}
		if !bytes.Equal(o.Forward, msg[e.Start:e.End]) {
			same = false
		}
		parts = append(parts, o.Forward)
	}
	switch {
	case same:
		out.Forward = msg
	case len(parts) > 0:
		out.Forward = batchOf(parts)
	}
	return out
}

// isBatch says whether a message is a JSON-RPC batch (an array).
func isBatch(msg []byte) bool {
	t := bytes.TrimSpace(msg)
	return len(t) > 0 && t[0] == '['
}

// batchOf is the batch of the messages parts.
func batchOf(parts [][]byte) []byte {
	return append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']')
}

func (s *Session) fromClient(msg []byte) Out {
	env, ok := readHeader(msg)
	if !ok || env.Method == "" || len(env.ID) == 0 {
		// A notification, a response to the server's request, or what the
		// guard does not read: the server's business.
		return Out{Forward: msg}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.answered, idKey(env.ID))
	req := request{method: env.Method}
	if kind, name, ok := s.calledItem(env.Method, msg); ok {
		req.name = name
		if a := s.refusal(env, kind, name); a != nil {
			return Out{Answers: [][]byte{a}}
		}
	}
	if !s.checks(req.method) {
		// Its answer passes as it is: nothing to wait for.
		return Out{Forward: msg}
	}
	key := idKey(env.ID)
	if _, open := s.pending[key]; !open && len(s.pending) >= maxPending {
		s.log(Decision{Decision: DecisionRefused, Method: env.Method,
			Message: fmt.Sprintf("refused %s: %d requests are waiting for the server's answer", env.Method, maxPending)})
		return Out{Answers: [][]byte{errorAnswer(env.ID, fmt.Sprintf(
			"mcp-surface guard: not sent: %d requests to server %s are waiting for an answer; send it again once they are answered",
			maxPending, s.opts.Entry.Key()), "", "")}}
	}
	s.pending[key] = req
	return Out{Forward: msg}
}

// checks says whether the guard checks the answer to a request of method.
func (s *Session) checks(method string) bool {
	switch method {
	case capture.HandshakeInitialize, capture.HandshakeDiscover, capture.MethodSkillsList, capture.MethodGroupsList, capture.MethodGroupsGet:
		return true
	case capture.MethodResourcesRead:
		// Only a locked skill's SKILL.md is checked where it is read.
		x := s.opts.Entry.Snapshot.Ext
		return x != nil && len(x.Skills) > 0
	}
	_, ok := manifest.KindOfMethod(method)
	return ok
}

// clientName names an item in what the client is told: by its name when
// the lock holds it (approved text), else only as a new one (a name the
// server made up is changed text too).
func (s *Session) clientName(kind, name string) string {
	if name != "" && s.holds(kind, name) {
		return fmt.Sprintf("%s %q", kind, name)
	}
	return "a new " + kind
}

// note records what a listing made of an item (v.Status, and blocked).
func (s *Session) note(v verdict, blocked bool) {
	if v.Name == "" {
		return
	}
	it := seenItem{blocked: blocked}
	if blocked {
		it.v = v
	}
	if s.seen[v.Kind] == nil {
		s.seen[v.Kind] = map[string]seenItem{}
	}
	if _, had := s.seen[v.Kind][v.Name]; !had && !s.holds(v.Kind, v.Name) {
		cost := len(v.Name) + len(it.v.Why) + 64
		if s.seenBytes+cost > maxSeenBytes {
			// Not remembered: a call to it is refused under block and
			// fail as to an item no listing served.
			return
		}
		s.seenBytes += cost
	}
	s.seen[v.Kind][v.Name] = it
}

// holds says whether the lock holds the item.
func (s *Session) holds(kind, name string) bool {
	switch kind {
	case finding.KindSkill:
		_, ok := s.opts.Entry.Snapshot.Ext.Skill(name)
		return ok
	case finding.KindGroup:
		_, ok := s.opts.Entry.Snapshot.Ext.Group(name)
		return ok
	}
	k, ok := manifest.KindOfSubject(kind)
	if !ok {
		return false
	}
	_, ok = s.j.locked(k.List, name)
	return ok
}

func (s *Session) fromServer(msg []byte) Out {
	env, ok := readHeader(msg)
	if !ok || env.Method != "" || len(env.ID) == 0 {
		// A request or notification of the server (list_changed among
		// them), or what the guard does not read: the client's business.
		return Out{Forward: msg}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := idKey(env.ID)
	req, ok := s.pending[key]
	if !ok {
		if s.answered[key] {
			// The server answered this request already, and that answer
			// was checked: a second one would reach the client unchecked.
			s.log(Decision{Decision: DecisionRefused, Message: "dropped a second answer of the server to a request it had answered"})
			return Out{}
		}
		return Out{Forward: msg}
	}
	delete(s.pending, key)
	s.answered[key] = true
	s.answeredKeys = append(s.answeredKeys, key)
	if len(s.answeredKeys) > maxPending {
		old := s.answeredKeys[0]
		s.answeredKeys = s.answeredKeys[1:]
		if _, open := s.pending[old]; !open {
			delete(s.answered, old)
		}
	}
	method := req.method
	if method == capture.HandshakeInitialize || method == capture.HandshakeDiscover {
		return s.initialized(msg, env, method)
	}
	if k, ok := manifest.KindOfMethod(method); ok {
		return s.listed(msg, env, method, k)
	}
	switch method {
	case capture.MethodSkillsList:
		return s.page(msg, env, method, "skills", "skill", s.j.skills)
	case capture.MethodGroupsList:
		return s.page(msg, env, method, "groups", "group", s.j.groups)
	case capture.MethodResourcesRead:
		return s.read(msg, env, req.name)
	case capture.MethodGroupsGet:
		return s.groupGet(msg, env, req.name)
	}
	return Out{Forward: msg}
}

// result returns the members of the message's result object; ok is
// false for an error answer (nothing to check).
func result(msg []byte, h header) (res []member, ok bool, err error) {
	r, found := find(h.Members, "result")
	if !found {
		return nil, false, nil
	}
	if res, err = objectMembers(msg, r.Value); err != nil {
		return nil, false, fmt.Errorf("result: %w", err)
	}
	return res, true, nil
}

// listed checks one listing page.
func (s *Session) listed(msg []byte, h header, method string, k manifest.ItemKind) Out {
	return s.page(msg, h, method, k.List, k.Noun, func(raws [][]byte) ([]verdict, error) { return s.j.items(k, raws) })
}

// page checks one listing page whose entries are the array under key
// of the result, judged by judge.
func (s *Session) page(msg []byte, h header, method, key, noun string, judge func([][]byte) ([]verdict, error)) Out {
	id := h.ID
	res, ok, err := result(msg, h)
	if err == nil && !ok {
		return Out{Forward: msg}
	}
	var arr member
	var elems, keep []span
	var unchanged int
	var end error
	if err == nil {
		var found bool
		if arr, found = find(res, key); !found {
			err = fmt.Errorf("the result has no %q", key)
		} else {
			elems, keep, unchanged, err = s.judged(msg, arr.Value, judge, func(v verdict) bool {
				return s.act(method, v, fmt.Sprintf("%s %s %q", v.Status, v.Kind, v.Name), &end)
			})
		}
	}
	if err != nil {
		return s.unreadable(msg, id, method, err)
	}
	n := len(elems)
	s.log(Decision{Decision: DecisionChecked, Method: method, Items: &n, Unchanged: &unchanged,
		Message: fmt.Sprintf("checked %s: %d %s(s), %d as locked, %d passed to the client", method, n, noun, unchanged, len(keep))})
	if end != nil {
		return ended(id, end)
	}
	if len(keep) == len(elems) {
		return Out{Forward: msg}
	}
	return Out{Forward: withElements(msg, arr.Value, keep)}
}

// judged reads the elements of the array at arr of msg and judges them
// with judge: an element as locked is noted and kept, each other one is
// kept when act says so. It returns the elements, those kept and how
// many are as locked.
func (s *Session) judged(msg []byte, arr span, judge func([][]byte) ([]verdict, error), act func(verdict) bool) (elems, keep []span, unchanged int, err error) {
	if elems, err = arrayElements(msg, arr); err != nil {
		return nil, nil, 0, err
	}
	raws := make([][]byte, len(elems))
	for i, e := range elems {
		raws[i] = msg[e.Start:e.End]
	}
	vs, err := judge(raws)
	if err != nil {
		return nil, nil, 0, err
	}
	for i, v := range vs {
		if v.Status == statusUnchanged {
			unchanged++
			keep = append(keep, elems[i])
			s.note(v, false)
			continue
		}
		if act(v) {
			keep = append(keep, elems[i])
		}
	}
	return elems, keep, unchanged, nil
}

// read checks the answer to a resources/read of a locked skill's
// SKILL.md against the locked text.
func (s *Session) read(msg []byte, h header, uri string) Out {
	res, ok, err := result(msg, h)
	if err != nil || !ok {
		return Out{Forward: msg}
	}
	v := s.j.skillText(msg, res, uri)
	if v == nil {
		return Out{Forward: msg}
	}
	const method = capture.MethodResourcesRead
	d := Decision{Method: method, Kind: v.Kind, Name: v.Name, Change: v.Status, Rules: v.Rules}
	what := fmt.Sprintf("the changed text of skill %q", v.Name)
	switch {
	case !v.Risky:
		d.Decision, d.Message = DecisionPassed, fmt.Sprintf("passed %s: %s", what, v.Why)
		s.log(d)
		return Out{Forward: msg}
	case s.opts.Mode == ModeWarn:
		d.Decision, d.Message = DecisionWarned, fmt.Sprintf("warning, passed %s: %s%s; review it with `%s`", what, v.Why, rulesNote(v.Rules), ReviewCommand)
		s.log(d)
		return Out{Forward: msg}
	case s.opts.Mode == ModeFail:
		d.Decision, d.Message = DecisionFailed, fmt.Sprintf("ending the session at %s: %s%s; review it with `%s`", what, v.Why, rulesNote(v.Rules), ReviewCommand)
		s.log(d)
		end := fmt.Errorf("%w: skill %q: %s%s", ErrChanged, v.Name, v.Threat, rulesNote(v.Rules))
		return ended(h.ID, end)
	}
	d.Decision, d.Message = DecisionBlocked, fmt.Sprintf("blocked %s: %s%s; review it with `%s`", what, v.Why, rulesNote(v.Rules), ReviewCommand)
	s.log(d)
	s.note(*v, true)
	return Out{Forward: errorAnswer(h.ID, fmt.Sprintf(
		"mcp-surface guard: skill %q of server %s changed since it was locked and is blocked: %s%s; review it with `%s`",
		v.Name, s.opts.Entry.Key(), v.Threat, rulesNote(v.Rules), ReviewCommand), v.Kind, v.Name)}
}

// rulesNote is " (rules: a, b)", or "" for none.
func rulesNote(rs []string) string {
	if len(rs) == 0 {
		return ""
	}
	return " (rules: " + strings.Join(rs, ", ") + ")"
}

// unreadable answers a listing the guard could not read: it cannot be
// checked, so it is not passed on unless the mode is warn.
func (s *Session) unreadable(msg []byte, id []byte, method string, err error) Out {
	d := Decision{Decision: DecisionUnreadable, Method: method}
	switch s.opts.Mode {
	case ModeWarn:
		d.Message = fmt.Sprintf("could not check a %s answer, passed it: %v", method, err)
		s.log(d)
		return Out{Forward: msg}
	case ModeFail:
		d.Message = fmt.Sprintf("could not check a %s answer, ending the session: %v", method, err)
		s.log(d)
		end := fmt.Errorf("%w: a %s answer could not be checked: %v", ErrChanged, method, err)
		// The client is told no more than that: the reason may quote the
		// server (a repeated member's name); stderr and the log say it.
		return Out{Forward: errorAnswer(id, fmt.Sprintf("mcp-surface guard: %v: a %s answer could not be checked against the lock; the session ends (--on-change fail); the guard's log says why", ErrChanged, method), "", ""), End: end}
	}
	d.Message = fmt.Sprintf("could not check a %s answer, answered an error instead: %v", method, err)
	s.log(d)
	return Out{Forward: errorAnswer(id, fmt.Sprintf("mcp-surface guard: the server's %s answer could not be checked against the lock (the guard's log says why); review the server with `%s`", method, ReviewCommand), "", "")}
}

// initialized checks the instructions of a handshake (initialize, or
// server/discover, whose result has them too).
func (s *Session) initialized(msg []byte, h header, method string) Out {
	id := h.ID
	res, ok, err := result(msg, h)
	if err != nil {
		return s.unreadable(msg, id, method, err)
	}
	if !ok {
		return Out{Forward: msg}
	}
	var raw []byte
	at := findAt(res, "instructions")
	if at >= 0 {
		raw = msg[res[at].Value.Start:res[at].Value.End]
	}
	v, err := s.j.instructions(raw)
	if err != nil {
		return s.unreadable(msg, id, method, err)
	}
	if v == nil {
		return Out{Forward: msg}
	}
	d := Decision{Method: method, Kind: finding.KindServer, Name: "instructions", Change: v.Status, Rules: v.Rules}
	switch {
	case !v.Risky || at < 0:
		// Instructions removed take nothing to the model.
		d.Decision, d.Message = DecisionPassed, "passed changed instructions: "+v.Why
		s.log(d)
		return Out{Forward: msg}
	case s.opts.Mode == ModeWarn:
		d.Decision, d.Message = DecisionWarned, fmt.Sprintf("warning, passed changed instructions: %s%s; review them with `%s`", v.Why, rulesNote(v.Rules), ReviewCommand)
		s.log(d)
		return Out{Forward: msg}
	case s.opts.Mode == ModeFail:
		d.Decision, d.Message = DecisionFailed, fmt.Sprintf("ending the session at changed instructions: %s%s; review them with `%s`", v.Why, rulesNote(v.Rules), ReviewCommand)
		s.log(d)
		end := fmt.Errorf("%w: the instructions: %s%s", ErrChanged, v.Threat, rulesNote(v.Rules))
		return ended(id, end)
	}
	d.Decision, d.Message = DecisionBlocked, fmt.Sprintf("blocked changed instructions (left out of the handshake): %s%s; review them with `%s`", v.Why, rulesNote(v.Rules), ReviewCommand)
	s.log(d)
	// res holds offsets into msg, as withoutMember wants.
	return Out{Forward: withoutMember(msg, res, at)}
}

// log records a decision with the session's mode and server.
func (s *Session) log(d Decision) {
	d.Mode = s.opts.Mode
	d.Server = s.opts.Entry.Key()
	s.opts.Log.Log(d)
}

// ended is what the session makes of a message at which it ends under
// ModeFail: the client is answered with the reason, end.
func ended(id []byte, end error) Out {
	return Out{Forward: errorAnswer(id, fmt.Sprintf("mcp-surface guard: %v; the session ends (--on-change fail); review it with `%s`", end, ReviewCommand), "", ""), End: end}
}

// errorAnswer is a JSON-RPC error response to id, the id spelled as the
// request spelled it; data names the item when there is one.
func errorAnswer(id []byte, message, kind, name string) []byte {
	type data struct {
		Kind   string `json:"kind,omitempty"`
		Name   string `json:"name,omitempty"`
		Review string `json:"review"`
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    data   `json:"data"`
	}
	e, _ := json.Marshal(rpcError{ErrorCode, message, data{kind, name, ReviewCommand}})
	// Written out rather than marshalled: a json.RawMessage id would be
	// respelled (HTML characters escaped) and the answer is the id's echo.
	b := make([]byte, 0, len(id)+len(e)+40)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id = bytes.TrimSpace(id); json.Valid(id) {
		b = append(b, id...)
	} else {
		b = append(b, "null"...) // what JSON-RPC answers to an id it cannot read
	}
	b = append(b, `,"error":`...)
	b = append(b, e...)
	return append(b, '}')
}

// act decides on a changed or new item under the session's mode, what
// naming it for the log: it logs the decision, notes what is blocked or
// passed, sets *end at the first change that ends the session under
// ModeFail, and reports whether the item goes on to the client.
func (s *Session) act(method string, v verdict, what string, end *error) (keep bool) {
	d := Decision{Method: method, Kind: v.Kind, Name: v.Name, Change: v.Status, Rules: v.Rules}
	switch {
	case !v.Risky:
		d.Decision, d.Message = DecisionPassed, fmt.Sprintf("passed %s: %s", what, v.Why)
		keep = true
		s.note(v, false)
	case s.opts.Mode == ModeWarn:
		d.Decision, d.Message = DecisionWarned, fmt.Sprintf("warning, passed %s: %s%s; review it with `%s`", what, v.Why, rulesNote(v.Rules), ReviewCommand)
		keep = true
		s.note(v, false)
	case s.opts.Mode == ModeFail:
		d.Decision, d.Message = DecisionFailed, fmt.Sprintf("ending the session at %s: %s%s; review it with `%s`", what, v.Why, rulesNote(v.Rules), ReviewCommand)
		if *end == nil {
			*end = fmt.Errorf("%w: %s: %s%s", ErrChanged, s.clientName(v.Kind, v.Name), v.Threat, rulesNote(v.Rules))
		}
	default:
		d.Decision, d.Message = DecisionBlocked, fmt.Sprintf("blocked %s: %s%s; review it with `%s`", what, v.Why, rulesNote(v.Rules), ReviewCommand)
		s.note(v, true)
	}
	s.log(d)
	return keep
}
