package clientconfig

import (
	"fmt"
	"maps"
	"strings"
)

// GuardCommand is the command of an entry that runs its server under the
// guard (mcp-surface lock --wrap writes it).
const GuardCommand = "mcp-surface"

// GuardSplit tells whether command and args run a server under the
// guard: the command's base name is mcp-surface (or mcp-surface.exe),
// args[0] is "guard" and a "--" follows it. dash is the index of the
// first "--": the server's command is args[dash+1], its arguments the
// rest.
func GuardSplit(command string, args []string) (dash int, ok bool) {
	if !isGuard(command) || len(args) == 0 || args[0] != "guard" {
		return 0, false
	}
	for i, a := range args[1:] {
		if a == "--" {
			return i + 1, true
		}
	}
	return 0, false
}

// unwrapped is entry as it was before lock --wrap when it runs its server
// under the guard (and true), else entry itself: the command is the word
// after "--", the args the words after it (no "args" member when there
// are none). A lock, its check and its entry hash see the server, not the
// guard. key names the entry in errors.
func unwrapped(key string, entry map[string]any) (map[string]any, bool, error) {
	command, _ := entry["command"].(string)
	list, _ := entry["args"].([]any)
	args := make([]string, 0, len(list))
	for _, a := range list {
		s, ok := a.(string)
		if !ok {
			return entry, false, nil // not the guard's; readServer names it
		}
		args = append(args, s)
	}
	dash, ok := GuardSplit(command, args)
	if !ok {
		if isGuard(command) && len(args) > 0 && args[0] == "guard" {
			return nil, false, fmt.Errorf("%s.args: runs %s guard with no \"--\" before the server's command line: write it after \"--\" (mcp-surface lock --wrap does)", key, GuardCommand)
		}
		return entry, false, nil
	}
	if dash == len(args)-1 {
		return nil, false, fmt.Errorf("%s.args: nothing follows the guard's \"--\": write the server's command line after it", key)
	}
	out := maps.Clone(entry)
	out["command"] = list[dash+1]
	if rest := list[dash+2:]; len(rest) > 0 {
		out["args"] = rest
	} else {
		delete(out, "args")
	}
	return out, true, nil
}

// isGuard reports whether command's base name is mcp-surface's.
func isGuard(command string) bool {
	base := command[strings.LastIndexAny(command, `/\`)+1:]
	return base == GuardCommand || base == GuardCommand+".exe"
}
