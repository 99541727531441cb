package lockwrap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonedit"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
)

// Options say which configurations to edit, and how.
type Options struct {
	// Root is the repository root, absolute; Configs the configurations,
	// as lock.Options reads them (none: every default file that exists).
	Root    string
	Configs []string
	// Lock is the lock file as given to lock: relative to Root, or
	// absolute. --wrap needs it, and each entry it wraps in it.
	Lock string
	// Getenv fills placeholders, to read the files as lock does.
	Getenv func(string) string
	// Unwrap takes the guard out instead of putting it in.
	Unwrap bool
}

// Run wraps (or unwraps) every stdio entry of the configurations and
// writes the files it changed. It returns one line per entry (what was
// done, or why it was left) and one per file written. On an error nothing
// was written, except when writing a file itself failed: the files
// before it were written (each whole).
func Run(ctx context.Context, o Options) ([]string, error) {
	files, err := lock.ConfigFiles(lock.Options{Root: o.Root, Configs: o.Configs})
	if err != nil {
		return nil, err
	}
	var l *lock.Lock
	if !o.Unwrap {
		path := o.Lock
		if !filepath.IsAbs(path) {
			path = filepath.Join(o.Root, path)
		}
		l, err = lock.ReadFile(ctx, path, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("there is no lock file %s: run `mcp-surface lock` first (the guard checks each server against its lock entry), then --wrap", o.Lock)
		} else if err != nil {
			return nil, err
		}
	}
	var (
		lines []string
		edits []*fileEdit
		errs  []error
	)
	for _, cf := range files {
		e, err := edit(ctx, o, l, cf)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lines = append(lines, e.lines...)
		edits = append(edits, e)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("nothing was written: %w", err)
	}
	for _, e := range edits {
		if bytes.Equal(e.before, e.after) {
			lines = append(lines, e.name+": nothing to change")
			continue
		}
		if err := outfile.Write(ctx, e.path, e.after); err != nil {
			return lines, err
		}
		lines = append(lines, "wrote "+e.name)
	}
	return lines, nil
}

// fileEdit is one configuration: its bytes before and after, and a line
// per entry.
type fileEdit struct {
	name, path    string
	before, after []byte
	lines         []string
}

// file is one configuration being edited.
type file struct {
	o      Options
	name   string
	format clientconfig.Format
	lock   *lock.Lock
	doc    *jsonedit.Doc
}

// edit plans the edit of one configuration and checks it.
func edit(ctx context.Context, o Options, l *lock.Lock, cf lock.ConfigFile) (*fileEdit, error) {
	read, err := clientconfig.Read(ctx, o.Root, cf.Name, cf.Format, o.Getenv)
	if err != nil {
		return nil, err
	}
	path := cf.Name
	if !filepath.IsAbs(path) {
		path = filepath.Join(o.Root, filepath.FromSlash(path))
	}
	doc, err := jsonedit.Parse(read.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cf.Name, err)
	}
	f := &file{o: o, name: cf.Name, format: read.Format, lock: l, doc: doc}
	out := &fileEdit{name: cf.Name, path: path, before: read.Data}
	edited := map[string]bool{}
	var errs []error
	for _, s := range read.Servers {
		key := lock.Key(s.File, s.Name)
		switch {
		case s.Transport != clientconfig.TransportStdio:
			out.lines = append(out.lines, fmt.Sprintf("left %s: a remote server (%s); the guard stands in front of stdio servers only", key, s.Transport))
		case o.Unwrap && !s.Wrapped:
			out.lines = append(out.lines, fmt.Sprintf("left %s: does not run under the guard", key))
		case !o.Unwrap && s.Wrapped:
			line := fmt.Sprintf("left %s: already runs under the guard", key)
			if other := f.guardServer(s.Name); other != "" && other != s.File+":"+s.Name {
				line += fmt.Sprintf(", but for the lock entry %s: --unwrap, then --wrap, points it at %s:%s", other, s.File, s.Name)
			}
			out.lines = append(out.lines, line)
		case o.Unwrap:
			if err := f.unwrap(s.Name); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", key, err))
				continue
			}
			edited[s.Name] = true
			out.lines = append(out.lines, fmt.Sprintf("unwrapped %s: %s", key, s.Shown))
		default:
			line, err := f.wrapChecked(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", key, err))
				continue
			}
			edited[s.Name] = true
			out.lines = append(out.lines, line...)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out.after = doc.Bytes()
	if len(edited) > 0 {
		if err := f.verify(ctx, read, out.after, edited); err != nil {
			return nil, fmt.Errorf("%s: %w", cf.Name, err)
		}
	}
	return out, nil
}

// verify checks an edited file: it reads back as the same servers, the
// edited ones wrapped (or not) as asked, and unwrapping what was wrapped
// gives the original bytes.
func (f *file) verify(ctx context.Context, was *clientconfig.File, after []byte, edited map[string]bool) error {
	now, err := clientconfig.Parse(ctx, f.o.Root, f.name, f.format, after, f.o.Getenv)
	if err != nil {
		return fmt.Errorf("the edited file does not read back, so it was not written (please report it): %w", err)
	}
	if len(now.Servers) != len(was.Servers) {
		return fmt.Errorf("the edited file reads back as %d servers, not %d, so it was not written (please report it)", len(now.Servers), len(was.Servers))
	}
	for i, s := range now.Servers {
		want := was.Servers[i]
		if edited[want.Name] {
			want.Wrapped = !f.o.Unwrap
		}
		if !reflect.DeepEqual(s, want) {
			return fmt.Errorf("%s reads back as another server after the edit, so the file was not written (please report it)", want.Name)
		}
	}
	if f.o.Unwrap {
		return nil
	}
	back, err := jsonedit.Parse(after)
	if err != nil {
		return err
	}
	g := &file{o: f.o, name: f.name, format: f.format, doc: back}
	for name := range edited {
		if err := g.unwrap(name); err != nil {
			return err
		}
	}
	if !bytes.Equal(back.Bytes(), was.Data) {
		return errors.New("--unwrap would not restore the file byte for byte, so it was not written (please report it)")
	}
	return nil
}
