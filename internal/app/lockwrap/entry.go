package lockwrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonedit"
)

// at is the path of a member of the entry name.
func (f *file) at(name, member string) []string {
	return []string{f.format.ServersKey(), name, member}
}

// commandLine is an entry's command and args, as written (raw) and read.
type commandLine struct {
	rawCommand json.RawMessage
	command    string
	rawArgs    []json.RawMessage
	args       []string
	hasArgs    bool
}

func (f *file) commandLine(name string) (commandLine, error) {
	var c commandLine
	raw, ok := f.doc.Get(f.at(name, "command")...)
	if !ok {
		return c, errors.New("no command")
	}
	c.rawCommand = raw
	if err := json.Unmarshal(raw, &c.command); err != nil {
		return c, fmt.Errorf("command: %w", err)
	}
	raw, c.hasArgs = f.doc.Get(f.at(name, "args")...)
	if !c.hasArgs {
		return c, nil
	}
	if err := json.Unmarshal(raw, &c.rawArgs); err != nil {
		return c, fmt.Errorf("args: %w", err)
	}
	for i, a := range c.rawArgs {
		var s string
		if err := json.Unmarshal(a, &s); err != nil {
			return c, fmt.Errorf("args[%d]: %w", i, err)
		}
		c.args = append(c.args, s)
	}
	return c, nil
}

// wrapChecked wraps the entry of s in the guard and checks the result:
// the command line is exactly the guard's, and unwrapping it gives the
// bytes before. It returns what to print.
func (f *file) wrapChecked(s clientconfig.Server) ([]string, error) {
	server := s.File + ":" + s.Name
	entry, ok := f.lock.Find(s.File, s.Name)
	if !ok {
		return nil, fmt.Errorf("the lock %s has no entry for it, and the guard would refuse to start: run `mcp-surface lock --update %s` first (review and commit the lock), then --wrap", f.o.Lock, server)
	}
	lockArg, err := f.lockArg(s)
	if err != nil {
		return nil, err
	}
	guard := []string{"guard", "--lock", lockArg, "--server", server, "--"}
	for _, a := range guard {
		if p := f.placeholder(a); p != "" {
			return nil, fmt.Errorf("the guard's argument %q holds %q, which %s would fill as a placeholder: give --lock a path without it, or rename the server", a, p, f.format.Client())
		}
	}
	was, err := f.commandLine(s.Name)
	if err != nil {
		return nil, err
	}
	if was.hasArgs && len(was.args) == 0 {
		return nil, fmt.Errorf(`its "args": [] could not be told from no "args" once wrapped, so --unwrap could not restore it: remove the empty "args" (every client reads the entry the same), run `+"`mcp-surface lock --update %s`"+`, then --wrap`, server)
	}
	before := f.doc.Bytes()
	if err := f.wrap(s.Name, was, guard); err != nil {
		return nil, err
	}
	now, err := f.commandLine(s.Name)
	if err != nil {
		return nil, err
	}
	want := append(append(slices.Clone(guard), was.command), was.args...)
	if now.command != clientconfig.GuardCommand || !slices.Equal(now.args, want) {
		return nil, fmt.Errorf("the wrapped entry reads as %q %q, not the guard's command line, so nothing was written (please report it)", now.command, now.args)
	}
	back, err := jsonedit.Parse(f.doc.Bytes())
	if err != nil {
		return nil, err
	}
	g := &file{o: f.o, name: f.name, format: f.format, doc: back}
	if err := g.unwrap(s.Name); err != nil || !bytes.Equal(back.Bytes(), before) {
		hand, _ := json.Marshal(want)
		return nil, fmt.Errorf("its layout cannot be edited so that --unwrap restores it byte for byte: write the entry by hand as \"command\": %q, \"args\": %s", clientconfig.GuardCommand, hand)
	}
	lines := []string{fmt.Sprintf("wrapped %s: %s %s %s", lock.Key(s.File, s.Name), clientconfig.GuardCommand, strings.Join(guard, " "), s.Shown)}
	if entry.EntryHash != s.EntryHash {
		lines = append(lines, fmt.Sprintf("note %s: the entry changed since it was locked: `mcp-surface lock --check` shows how, `mcp-surface lock --update %s` accepts it", lock.Key(s.File, s.Name), server))
	}
	return lines, nil
}

// wrap puts the guard's words and the entry's command in front of its
// args, and mcp-surface in its command.
func (f *file) wrap(name string, was commandLine, guard []string) error {
	if !was.hasArgs {
		if err := f.doc.Set(json.RawMessage(`[]`), f.at(name, "args")...); err != nil {
			return err
		}
	}
	values := make([]json.RawMessage, 0, len(guard)+1)
	for _, a := range guard {
		values = append(values, canonjson.AppendString(nil, a))
	}
	values = append(values, was.rawCommand)
	if err := f.doc.Set(canonjson.AppendString(nil, clientconfig.GuardCommand), f.at(name, "command")...); err != nil {
		return err
	}
	return f.doc.InsertElements(0, values, f.at(name, "args")...)
}

// unwrap restores the command and args that follow the guard's "--"; an
// entry left with no args loses its "args".
func (f *file) unwrap(name string) error {
	c, err := f.commandLine(name)
	if err != nil {
		return err
	}
	dash, ok := clientconfig.GuardSplit(c.command, c.args)
	if !ok || dash+1 >= len(c.rawArgs) {
		return errors.New("it does not run a server under the guard")
	}
	if err := f.doc.Set(c.rawArgs[dash+1], f.at(name, "command")...); err != nil {
		return err
	}
	if dash+2 == len(c.rawArgs) {
		return f.doc.Delete(f.at(name, "args")...)
	}
	return f.doc.DeleteElements(0, dash+2, f.at(name, "args")...)
}

// guardServer is the --server the guard of a wrapped entry is given, or
// "".
func (f *file) guardServer(name string) string {
	c, err := f.commandLine(name)
	if err != nil {
		return ""
	}
	dash, ok := clientconfig.GuardSplit(c.command, c.args)
	for i := 1; ok && i+1 < dash; i++ {
		if c.args[i] == "--server" {
			return c.args[i+1]
		}
	}
	return ""
}

// lockArg is the lock file as the guard, started by the client, finds
// it: the path given to lock (relative to the root, where clients start
// servers), relative to the entry's cwd when it has one, absolute for
// Claude Desktop, which starts servers outside the repository.
func (f *file) lockArg(s clientconfig.Server) (string, error) {
	if filepath.IsAbs(f.o.Lock) {
		return f.o.Lock, nil
	}
	abs := filepath.Join(f.o.Root, f.o.Lock)
	if f.format == clientconfig.FormatClaudeDesktop {
		return abs, nil
	}
	raw, ok := f.doc.Get(f.at(s.Name, "cwd")...)
	if !ok {
		return filepath.ToSlash(f.o.Lock), nil
	}
	var cwd string
	if err := json.Unmarshal(raw, &cwd); err != nil {
		return "", fmt.Errorf("cwd: %w", err)
	}
	fixed := cwd
	if f.format == clientconfig.FormatVSCode || f.format == clientconfig.FormatCursor {
		fixed = strings.ReplaceAll(fixed, "${workspaceFolder}", "")
	}
	if strings.Contains(fixed, "$") {
		return "", fmt.Errorf("its cwd %q depends on the environment, and the guard looks for the lock from there: give --lock an absolute path, or wrap the entry by hand", cwd)
	}
	rel, err := filepath.Rel(s.Dir, abs)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// placeholder is the start of a placeholder the client would fill in a,
// or "".
func (f *file) placeholder(a string) string {
	switch {
	case f.format == clientconfig.FormatClaudeDesktop:
	case f.format == clientconfig.FormatGemini && strings.Contains(a, "$"):
		return "$"
	case strings.Contains(a, "${"):
		return "${"
	}
	return ""
}
