package clientconfig

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonedit"
)

// Format is a client's configuration format.
type Format string

// The formats read, by the client that documents each.
const (
	FormatVSCode        Format = "vscode"
	FormatClaudeCode    Format = "claude-code"
	FormatCursor        Format = "cursor"
	FormatGemini        Format = "gemini"
	FormatClaudeDesktop Format = "claude-desktop"
)

// Formats lists every format, in the order DefaultFiles are looked for.
var Formats = []Format{FormatVSCode, FormatClaudeCode, FormatCursor, FormatGemini, FormatClaudeDesktop}

// Client names the client whose format f is.
func (f Format) Client() string {
	switch f {
	case FormatVSCode:
		return "VS Code"
	case FormatClaudeCode:
		return "Claude Code"
	case FormatCursor:
		return "Cursor"
	case FormatGemini:
		return "Gemini CLI"
	case FormatClaudeDesktop:
		return "Claude Desktop"
	}
	return string(f)
}

// ServersKey is the member that holds the servers.
func (f Format) ServersKey() string {
	if f == FormatVSCode {
		return "servers"
	}
	return "mcpServers"
}

// DefaultFiles are the configurations a repository commits for its
// agents, relative to its root, slash-separated: the files Discover looks
// for. Claude Desktop's file lives in the user's profile, not in
// repositories, and is read only when named.
var DefaultFiles = []string{".vscode/mcp.json", ".mcp.json", ".cursor/mcp.json", ".gemini/settings.json"}

// MaxFileBytes bounds a configuration file (and an envFile) read.
const MaxFileBytes = 4 << 20

// FormatOf is the format of a configuration file, told by its name.
func FormatOf(name string) (Format, error) {
	name = filepath.ToSlash(name)
	base, dir := path.Base(name), path.Base(path.Dir(name))
	switch {
	case base == "mcp.json" && dir == ".vscode":
		return FormatVSCode, nil
	case base == "mcp.json" && dir == ".cursor":
		return FormatCursor, nil
	case base == ".mcp.json":
		return FormatClaudeCode, nil
	case base == "settings.json" && dir == ".gemini":
		return FormatGemini, nil
	case base == "claude_desktop_config.json":
		return FormatClaudeDesktop, nil
	}
	return "", fmt.Errorf("%s: not a client configuration this tool knows by its name (.vscode/mcp.json, .mcp.json, .cursor/mcp.json, .gemini/settings.json, claude_desktop_config.json); name its format as FORMAT:PATH, FORMAT one of %s", name, formatList())
}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	if slices.Contains(Formats, Format(s)) {
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown configuration format %q: use one of %s", s, formatList())
}

func formatList() string {
	var names []string
	for _, f := range Formats {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// Discover returns those of DefaultFiles that exist under root.
func Discover(root string) ([]string, error) {
	var out []string
	for _, f := range DefaultFiles {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
		if err == nil {
			out = append(out, f)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return out, nil
}

// Transport is how a client talks to a server.
type Transport string

// The transports of the formats.
const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http" // streamable HTTP
	TransportSSE   Transport = "sse"  // the legacy HTTP+SSE transport
)

// Server is one server a configuration declares, its placeholders filled.
type Server struct {
	// File is the configuration, as named (relative to the root,
	// slash-separated), and Name the server's key in it.
	File   string
	Name   string
	Format Format
	// Transport and, for stdio, the command, its arguments, the
	// variables added to the environment (NAME=value, sorted) and the
	// working directory (absolute); for HTTP and SSE the URL and headers.
	Transport Transport
	Command   string
	Args      []string
	Env       []string
	Dir       string
	URL       string
	Headers   map[string]string
	// Shown is the command line or URL as written, placeholders not
	// filled: what may be printed.
	Shown string
	// EntryHash is "sha256:" and the hash of the entry as written.
	EntryHash string
	// Secrets are the values that came from the environment (or an
	// envFile): never print them.
	Secrets []string
	// Missing are the variables the entry needs that are unset or empty:
	// the server cannot be started as its client would.
	Missing []string
	// Wrapped: the entry runs the server under `mcp-surface guard`
	// (lock --wrap). Every other field is of the server after the
	// guard's "--", as if the entry were not wrapped.
	Wrapped bool
}

// File is a configuration read.
type File struct {
	Path    string
	Format  Format
	Servers []Server // sorted by name
	// Data is the file's bytes as read: what lock --wrap edits.
	Data []byte
}

// Read reads the configuration at name (relative to root, or absolute) in
// format f ("" tells it by the name), filling placeholders with getenv and
// ${workspaceFolder} with root (absolute).
func Read(ctx context.Context, root, name string, f Format, getenv func(string) string) (*File, error) {
	if f == "" {
		var err error
		if f, err = FormatOf(name); err != nil {
			return nil, err
		}
	}
	full := name
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, filepath.FromSlash(name))
	}
	data, err := infile.Read(ctx, full, "client configuration", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return Parse(ctx, root, name, f, data, getenv)
}

// Parse reads a configuration's bytes (see Read); name is used in errors
// and as Server.File.
func Parse(ctx context.Context, root, name string, f Format, data []byte, getenv func(string) string) (*File, error) {
	wrap := func(err error) error { return fmt.Errorf("%s (%s format): %w", name, f.Client(), err) }
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	clean, err := jsonedit.Plain(data)
	if err != nil {
		return nil, wrap(err)
	}
	if err := canonjson.CheckUnique(clean); err != nil {
		return nil, wrap(err)
	}
	doc, err := canonjson.Decode(clean)
	if err != nil {
		return nil, wrap(fmt.Errorf("not JSON: %w", err))
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, wrap(errors.New("the file is not a JSON object"))
	}
	key := f.ServersKey()
	raw, ok := top[key]
	if !ok {
		other := map[bool]string{true: "mcpServers", false: "servers"}[key == "servers"]
		if _, found := top[other]; found {
			return nil, wrap(fmt.Errorf("no %q object, but %q: that is another client's format; name the format as FORMAT:PATH", key, other))
		}
		return nil, wrap(fmt.Errorf("no %q object: the file declares no server", key))
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		return nil, wrap(fmt.Errorf("%s: want an object of servers by name", key))
	}
	inputs, err := vscodeInputs(f, top)
	if err != nil {
		return nil, wrap(err)
	}
	out := &File{Path: name, Format: f, Data: data}
	for _, sname := range slices.Sorted(maps.Keys(servers)) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		entry, ok := servers[sname].(map[string]any)
		if !ok {
			return nil, wrap(fmt.Errorf("%s.%s: want an object", key, sname))
		}
		entry, wrapped, err := unwrapped(key+"."+sname, entry)
		if err != nil {
			return nil, wrap(err)
		}
		x := &expander{ctx: ctx, format: f, root: abs, getenv: getenv, inputs: inputs}
		s, err := readServer(x, key+"."+sname, entry)
		if err != nil {
			return nil, wrap(err)
		}
		s.File, s.Name, s.Format = filepath.ToSlash(name), sname, f
		canon, err := canonjson.CanonicalizeValue(entry)
		if err != nil {
			return nil, wrap(fmt.Errorf("%s.%s: %w", key, sname, err))
		}
		sum := sha256.Sum256(canon)
		s.EntryHash = "sha256:" + hex.EncodeToString(sum[:])
		s.Secrets, s.Missing, s.Wrapped = x.secrets, x.missing, wrapped
		out.Servers = append(out.Servers, s)
	}
	return out, nil
}

// vscodeInputs are the ids the "inputs" array of a VS Code file declares.
func vscodeInputs(f Format, top map[string]any) (map[string]bool, error) {
	ids := map[string]bool{}
	raw, ok := top["inputs"]
	if f != FormatVSCode || !ok {
		return ids, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, errors.New("inputs: want an array")
	}
	for i, in := range list {
		m, ok := in.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("inputs[%d]: want an object", i)
		}
		id, ok := m["id"].(string)
		if !ok || id == "" {
			return nil, fmt.Errorf("inputs[%d].id: want a string", i)
		}
		ids[id] = true
	}
	return ids, nil
}
