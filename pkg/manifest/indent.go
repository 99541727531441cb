package manifest

import (
	"bufio"
	"bytes"
	"io"
)

// EncodeTo writes the snapshot file, byte for byte what Encode returns,
// as a stream: neither the compact nor the indented form of the whole
// surface is ever held in memory, which for a large server is several
// times the size of what it sent.
func EncodeTo(w io.Writer, m *Manifest) error {
	extra, err := m.unhashed()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	iw := &indenter{w: bw}
	if err := m.writeCanonical(iw, extra); err != nil {
		return err
	}
	if iw.err != nil {
		return iw.err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// indenter pretty-prints compact canonical JSON as it is written, as
// json.Indent with no prefix and two spaces would: an empty object or
// array stays "{}" or "[]", every other member and element gets a line of
// its own. Its state spans writes, so the JSON may arrive in any pieces.
type indenter struct {
	w     *bufio.Writer
	depth int
	inStr bool
	esc   bool
	// open: the last byte opened an object or array; its newline waits
	// for the next byte, which may close it at once.
	open bool
	err  error
}

func (d *indenter) newline() {
	d.w.WriteByte('\n')
	for range d.depth {
		d.w.WriteString("  ")
	}
}

func (d *indenter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if d.inStr {
			// Copy the run up to the next quote or backslash at once.
			i := 0
			if d.esc {
				d.esc = false
				i = 1
			}
			j := bytes.IndexAny(p[i:], "\"\\")
			if j < 0 {
				d.w.Write(p)
				return n, nil
			}
			j += i
			d.w.Write(p[:j+1])
			if p[j] == '\\' {
				d.esc = true
			} else {
				d.inStr = false
			}
			p = p[j+1:]
			continue
		}
		c := p[0]
		p = p[1:]
		if d.open {
			d.open = false
			if c == '}' || c == ']' {
				d.depth--
				d.w.WriteByte(c)
				continue
			}
			d.newline()
		}
		switch c {
		case '"':
			d.inStr = true
			d.w.WriteByte(c)
		case '{', '[':
			d.w.WriteByte(c)
			d.depth++
			d.open = true
		case '}', ']':
			d.depth--
			d.newline()
			d.w.WriteByte(c)
		case ',':
			d.w.WriteByte(c)
			d.newline()
		case ':':
			d.w.WriteString(": ")
		default:
			d.w.WriteByte(c)
		}
	}
	return n, nil
}
