package clientconfig

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
)

// readServer reads one entry; key is its place in the file
// ("servers.github").
func readServer(x *expander, key string, e map[string]any) (Server, error) {
	var s Server
	str := func(name string) (string, bool, error) {
		v, ok := e[name]
		if !ok {
			return "", false, nil
		}
		t, ok := v.(string)
		if !ok {
			return "", false, fmt.Errorf("%s.%s: want a string", key, name)
		}
		return t, true, nil
	}
	command, hasCommand, err := str("command")
	if err != nil {
		return s, err
	}
	url, hasURL, err := str("url")
	if err != nil {
		return s, err
	}
	typ, hasType, err := str("type")
	if err != nil {
		return s, err
	}
	if x.format == FormatClaudeDesktop && (hasURL || hasType) {
		return s, fmt.Errorf("%s: Claude Desktop's file declares stdio servers only (command, args, env); remote servers are added in its settings", key)
	}
	urlKey := "url"
	if x.format == FormatGemini {
		httpURL, hasHTTP, err := str("httpUrl")
		if err != nil {
			return s, err
		}
		if hasHTTP {
			if hasURL {
				return s, fmt.Errorf("%s: give url (SSE) or httpUrl (streamable HTTP), not both", key)
			}
			url, hasURL, typ, hasType, urlKey = httpURL, true, "http", true, "httpUrl"
		} else if hasURL && !hasType {
			typ, hasType = "sse", true // Gemini CLI's url is the SSE transport
		}
	}
	if hasCommand == hasURL {
		return s, fmt.Errorf("%s: want either \"command\" (a stdio server) or %s, and not both", key, urlKeys(x.format))
	}
	switch {
	case hasCommand:
		s.Transport = TransportStdio
		if hasType && typ != "stdio" {
			return s, fmt.Errorf("%s.type: %q with a command; a stdio server's type is \"stdio\"", key, typ)
		}
	case typ == "stdio":
		return s, fmt.Errorf("%s: type \"stdio\" needs a command", key)
	case !hasType || typ == "http" || typ == "streamableHttp" && x.format == FormatCursor:
		s.Transport = TransportHTTP
	case typ == "sse":
		s.Transport = TransportSSE
	default:
		return s, fmt.Errorf("%s.type: %q is not a transport of %s's format (stdio, http, sse)", key, typ, x.format.Client())
	}

	if s.Transport == TransportStdio {
		if s.Command, err = x.expand(key+".command", command); err != nil {
			return s, err
		}
		if strings.TrimSpace(command) == "" {
			return s, fmt.Errorf("%s.command: empty", key)
		}
		args, err := stringList(e, key, "args")
		if err != nil {
			return s, err
		}
		shown := []string{command}
		for i, a := range args {
			v, err := x.expand(fmt.Sprintf("%s.args[%d]", key, i), a)
			if err != nil {
				return s, err
			}
			s.Args = append(s.Args, v)
			shown = append(shown, a)
		}
		s.Shown = strings.Join(shown, " ")
		if s.Dir, err = readDir(x, key, e); err != nil {
			return s, err
		}
		if s.Env, err = readEnv(x, key, e); err != nil {
			return s, err
		}
		return s, nil
	}
	if _, ok := e["args"]; ok {
		return s, fmt.Errorf("%s.args: a remote server takes no args", key)
	}
	s.Shown = url
	if s.URL, err = x.expand(key+"."+urlKey, url); err != nil {
		return s, err
	}
	h, err := stringMap(e, key, "headers")
	if err != nil {
		return s, err
	}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		v, err := x.expand(key+".headers."+k, h[k])
		if err != nil {
			return s, err
		}
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers[k] = v
	}
	return s, nil
}

func urlKeys(f Format) string {
	if f == FormatGemini {
		return "\"url\" (SSE) or \"httpUrl\" (streamable HTTP)"
	}
	return "\"url\" (a remote server)"
}

func stringList(e map[string]any, key, name string) ([]string, error) {
	v, ok := e[name]
	if !ok {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.%s: want an array of strings", key, name)
	}
	out := make([]string, 0, len(list))
	for i, a := range list {
		s, ok := a.(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s[%d]: want a string", key, name, i)
		}
		out = append(out, s)
	}
	return out, nil
}

// stringMap reads an object of strings; numbers are taken as written (VS
// Code accepts them in env), null drops the member.
func stringMap(e map[string]any, key, name string) (map[string]string, error) {
	v, ok := e[name]
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s.%s: want an object of strings", key, name)
	}
	out := map[string]string{}
	for k, val := range m {
		switch t := val.(type) {
		case string:
			out[k] = t
		case nil:
		case fmt.Stringer: // a number, as written
			out[k] = t.String()
		default:
			return nil, fmt.Errorf("%s.%s.%s: want a string", key, name, k)
		}
	}
	return out, nil
}

func readDir(x *expander, key string, e map[string]any) (string, error) {
	v, ok := e["cwd"]
	if !ok {
		return x.root, nil
	}
	if x.format == FormatClaudeDesktop || x.format == FormatClaudeCode {
		return "", fmt.Errorf("%s.cwd: %s's format has no cwd; its servers run in the workspace folder", key, x.format.Client())
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s.cwd: want a string", key)
	}
	d, err := x.expand(key+".cwd", s)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(x.root, filepath.FromSlash(d))
	}
	return d, nil
}

// readEnv is the entry's envFile (VS Code, Cursor), then its env, as
// NAME=value sorted by name.
func readEnv(x *expander, key string, e map[string]any) ([]string, error) {
	vars := map[string]string{}
	if v, ok := e["envFile"]; ok {
		if x.format != FormatVSCode && x.format != FormatCursor {
			return nil, fmt.Errorf("%s.envFile: %s's format has no envFile", key, x.format.Client())
		}
		p, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s.envFile: want a string", key)
		}
		p, err := x.expand(key+".envFile", p)
		if err != nil {
			return nil, err
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(x.root, filepath.FromSlash(p))
		}
		if err := readEnvFile(x, key+".envFile", p, vars); err != nil {
			return nil, err
		}
	}
	env, err := stringMap(e, key, "env")
	if err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if !isEnvName(k) {
			return nil, fmt.Errorf("%s.env: %q is not a variable name", key, k)
		}
		v, err := x.expand(key+".env."+k, env[k])
		if err != nil {
			return nil, err
		}
		vars[k] = v
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		out = append(out, k+"="+vars[k])
	}
	return out, nil
}

// readEnvFile reads NAME=value lines (# comments, an optional export,
// quotes around the value); every value is a secret. A missing file is
// an error: the client would start the server without its variables.
func readEnvFile(x *expander, key, p string, vars map[string]string) error {
	data, err := infile.Read(x.ctx, p, "envFile", MaxFileBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, val, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok || !isEnvName(name) {
			return fmt.Errorf("%s: line %d is not NAME=value", key, n)
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
			val = val[1 : len(val)-1]
		}
		vars[name] = val
		if val != "" && !slices.Contains(x.secrets, val) {
			x.secrets = append(x.secrets, val)
		}
	}
	return sc.Err()
}
