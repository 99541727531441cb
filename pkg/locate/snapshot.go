package locate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// snapshotIndex knows the line of every JSON Pointer of a snapshot file
// and the index of every item by identity.
type snapshotIndex struct {
	lineStarts []int
	ptrLine    map[string]int
	ident      map[string]map[string]int // section → identity → index
}

type frame struct {
	array     bool
	idx       int
	ptr       string
	depth     int
	expectKey bool
	key       string
}

// indexSnapshot walks the file's tokens once. A key's line is the line of
// the key; an array element's line is the line where the element starts.
func indexSnapshot(data []byte) (*snapshotIndex, error) {
	x := &snapshotIndex{ptrLine: map[string]int{}, ident: map[string]map[string]int{}}
	x.lineStarts = append(x.lineStarts, 0)
	for i, b := range data {
		if b == '\n' {
			x.lineStarts = append(x.lineStarts, i+1)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*frame
	record := func(ptr string, end int) {
		if _, ok := x.ptrLine[ptr]; !ok {
			x.ptrLine[ptr] = x.lineAt(end)
		}
	}
	pop := func() {
		stack = stack[:len(stack)-1]
		if n := len(stack); n > 0 && !stack[n-1].array {
			stack[n-1].expectKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		end := int(dec.InputOffset()) - 1
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && !top.array && top.expectKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				pop()
				continue
			}
			key, _ := tok.(string)
			top.key, top.expectKey = key, false
			record(jsonptr.Pointer(top.ptr).Append(key).String(), end)
			continue
		}
		if d, ok := tok.(json.Delim); ok && d == ']' {
			pop()
			continue
		}
		ptr, depth := "", 0
		if top != nil {
			depth = top.depth + 1
			if top.array {
				ptr = jsonptr.Pointer(top.ptr).AppendIndex(top.idx).String()
				record(ptr, end)
				top.idx++
			} else {
				ptr = jsonptr.Pointer(top.ptr).Append(top.key).String()
			}
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{array: d == '[', ptr: ptr, depth: depth, expectKey: d == '{'})
			continue
		}
		if s, ok := tok.(string); ok && top != nil && !top.array && top.depth == 2 {
			x.noteIdentity(top.ptr, top.key, s)
		}
		if top != nil && !top.array {
			top.expectKey = true
		}
	}
	if _, ok := x.ptrLine[""]; !ok {
		x.ptrLine[""] = 1
	}
	return x, nil
}

// noteIdentity records an item's identity member: ptr is "/section/i".
func (x *snapshotIndex) noteIdentity(ptr, key, value string) {
	parts := jsonptr.Pointer(ptr).Tokens()
	if len(parts) != 2 {
		return
	}
	section := parts[0]
	if k, ok := manifest.KindOfList(section); !ok || k.Identity != key {
		return
	}
	i, err := strconv.Atoi(parts[1])
	if err != nil {
		return
	}
	if x.ident[section] == nil {
		x.ident[section] = map[string]int{}
	}
	if _, dup := x.ident[section][value]; !dup {
		x.ident[section][value] = i
	}
}

func (x *snapshotIndex) lineAt(offset int) int {
	return sort.Search(len(x.lineStarts), func(i int) bool { return x.lineStarts[i] > offset })
}

// line finds the line for a subject and a JSON Pointer into it: the
// deepest prefix of the pointer that exists, else the item's identity
// line, else its section's line. Server subjects use the pointer from the
// top of the file (capabilities, instructions, serverInfo, ...).
func (x *snapshotIndex) line(s finding.Subject, pointer string) (int, bool) {
	base := ""
	identity := ""
	if k, ok := manifest.KindOfSubject(s.Kind); ok {
		i, found := x.ident[k.List][s.Name]
		if !found {
			l, ok := x.ptrLine[jsonptr.New(k.List).String()]
			return l, ok
		}
		base = jsonptr.New(k.List).AppendIndex(i).String()
		identity = jsonptr.Pointer(base).Append(k.Identity).String()
	} else if s.Kind != finding.KindServer {
		return 0, false
	}
	if pointer != "" && !strings.HasPrefix(pointer, "/") {
		pointer = "/" + pointer
	}
	p := base + pointer
	for {
		if p == base && identity != "" {
			if l, ok := x.ptrLine[identity]; ok {
				return l, true
			}
		}
		if l, ok := x.ptrLine[p]; ok && (p != "" || base == "") {
			if p == "" {
				// A server finding whose pointer names nothing in the
				// file: the server's identity is the best anchor.
				if l, ok := x.ptrLine["/serverInfo"]; ok {
					return l, true
				}
			}
			return l, true
		}
		if len(p) <= len(base) {
			return 0, false
		}
		p = p[:strings.LastIndexByte(p, '/')]
	}
}
