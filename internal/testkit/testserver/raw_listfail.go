package testserver

import "encoding/json"

// Raw modes whose advertised lists fail with an error other than
// -32601 Method not found: the list exists, but the server could not
// produce it (a capture of them is incomplete).
const (
	// ModeListFailed advertises tools, prompts and resources, answers
	// tools/list with -32603 (ListFailedMessage), and the other lists as
	// paged-raw does.
	ModeListFailed = "list-failed"
	// ModeListFailedPage advertises tools, answers the first page of
	// tools/list as paged-raw does (two tools and a nextCursor) and the
	// second with -32603 (ListFailedPageMessage).
	ModeListFailedPage = "list-failed-page"
)

// The errors the list-failed modes answer with. The second page's
// message carries a terminal escape, which whatever prints it must not
// pass through.
const (
	CodeInternalError     = -32603
	ListFailedMessage     = "backend unreachable: connect ECONNREFUSED 127.0.0.1:5432"
	ListFailedPageMessage = "page 2: upstream \x1b[31mtimed out\x1b[0m"
)

// listFailRequest answers the requests the list-failed modes answer
// their own way; done is false for the others.
func (s *rawServer) listFailRequest(req rpcMessage) (done bool, err error) {
	if s.mode != ModeListFailed && s.mode != ModeListFailedPage {
		return false, nil
	}
	id, method := req.ID, req.Method
	switch method {
	case "initialize":
		res, _ := s.initializeResult(req.Params).(map[string]any)
		res["capabilities"] = json.RawMessage(`{"tools":{}}`)
		if s.mode == ModeListFailed {
			res["capabilities"] = json.RawMessage(`{"tools":{},"prompts":{},"resources":{}}`)
		}
		return true, s.writeResult(id, method, res)
	case "tools/list":
		if s.mode == ModeListFailed {
			return true, s.writeError(id, method, CodeInternalError, ListFailedMessage)
		}
		if c := cursorOf(req.Params); c != "" {
			return true, s.writeError(id, method, CodeInternalError, ListFailedPageMessage)
		}
		return true, s.writeResult(id, method, json.RawMessage(pagedRawToolPages[""]))
	}
	if s.mode == ModeListFailed {
		switch method {
		case "prompts/list":
			return true, s.writeResult(id, method, json.RawMessage(pagedRawPrompts))
		case "resources/list":
			return true, s.writeResult(id, method, json.RawMessage(pagedRawResources))
		case "resources/templates/list":
			return true, s.writeResult(id, method, json.RawMessage(pagedRawTemplates))
		}
	}
	return false, nil
}
