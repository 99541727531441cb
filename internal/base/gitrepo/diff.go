package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Range is an inclusive range of line numbers.
type Range struct {
	Start, End int
}

// Lines maps a file path (relative to the repository root, slash-separated,
// as the head commit names it) to the sorted, disjoint ranges of its lines
// that a diff adds or modifies, numbered in the head version. Deleted files
// and pure deletions contribute nothing.
type Lines map[string][]Range

// Contains reports whether line of path is added or modified.
func (l Lines) Contains(path string, line int) bool {
	rs := l[path]
	i := sort.Search(len(rs), func(i int) bool { return rs[i].End >= line })
	return i < len(rs) && rs[i].Start <= line
}

// Count returns the number of lines in the set.
func (l Lines) Count() int {
	n := 0
	for _, rs := range l {
		for _, r := range rs {
			n += r.End - r.Start + 1
		}
	}
	return n
}

// ChangedLines returns the lines that the pull request from base to head
// adds or modifies: the diff from the merge base of base and head to head
// (git diff base...head), as GitHub shows it, with renames followed. It
// needs the history down to the merge base: in a shallow clone fetch it
// (actions/checkout with fetch-depth: 0) or expect ErrNoMergeBase.
func ChangedLines(ctx context.Context, repoDir, base, head string) (Lines, error) {
	mb, err := MergeBase(ctx, repoDir, base, head)
	if err != nil {
		return nil, err
	}
	hc, err := ResolveCommit(ctx, repoDir, head)
	if err != nil {
		return nil, err
	}
	out, err := run(ctx, repoDir,
		"-c", "core.quotePath=false", "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false",
		"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--unified=0", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/",
		mb, hc, "--")
	if err != nil {
		return nil, err
	}
	lines, err := ParseUnifiedDiff(bytes.NewReader(out))
	if err != nil {
		return nil, fmt.Errorf("diff %s...%s: %w", base, head, err)
	}
	return lines, nil
}

// ParseUnifiedDiff reads a git unified diff (any context size, "b/" as the
// new side's prefix) and returns the added and modified lines of each new
// file. Hunk bodies are consumed by count, so an added line that looks like
// a header ("+++ b/x") is not mistaken for one.
func ParseUnifiedDiff(r io.Reader) (Lines, error) {
	out := Lines{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var (
		path             string // new side of the current file; "" when deleted
		oldLeft          int    // lines of the current hunk still to read
		newLeft          int
		newLine          int // head line number of the next '+' or ' ' line
		runStart, runLen int // current run of added lines
	)
	flush := func() {
		if runLen > 0 && path != "" {
			out[path] = appendRange(out[path], Range{runStart, runStart + runLen - 1})
		}
		runLen = 0
	}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(line, "+"):
				if runLen == 0 {
					runStart = newLine
				}
				runLen++
				newLine++
				newLeft--
			case strings.HasPrefix(line, "-"):
				flush()
				oldLeft--
			case strings.HasPrefix(line, " "), line == "":
				flush()
				newLine++
				oldLeft--
				newLeft--
			case strings.HasPrefix(line, `\`): // "\ No newline at end of file"
			default:
				return nil, fmt.Errorf("line %d: unexpected %q inside a hunk", lineNo, line)
			}
			if oldLeft < 0 || newLeft < 0 {
				return nil, fmt.Errorf("line %d: hunk longer than its header says", lineNo)
			}
			if oldLeft == 0 && newLeft == 0 {
				flush()
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path = ""
		case strings.HasPrefix(line, "+++ "):
			p, err := diffPath(line[4:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", lineNo, err)
			}
			path = p
		case strings.HasPrefix(line, "@@ "):
			o, n, start, err := parseHunkHeader(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", lineNo, err)
			}
			oldLeft, newLeft, newLine = o, n, start
		case strings.HasPrefix(line, "--- "):
		case strings.HasPrefix(line, "+"), strings.HasPrefix(line, "-"), strings.HasPrefix(line, " "):
			return nil, fmt.Errorf("line %d: %q outside a hunk", lineNo, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if oldLeft > 0 || newLeft > 0 {
		return nil, fmt.Errorf("diff ends inside a hunk")
	}
	return out, nil
}

// appendRange adds r after the ranges of a file, merging adjacent ones
// (hunks come in increasing order).
func appendRange(rs []Range, r Range) []Range {
	if n := len(rs); n > 0 && rs[n-1].End+1 >= r.Start {
		rs[n-1].End = max(rs[n-1].End, r.End)
		return rs
	}
	return append(rs, r)
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ ...".
func parseHunkHeader(line string) (oldCount, newCount, newStart int, err error) {
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[0] != "@@" || fields[3] != "@@" ||
		!strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", line)
	}
	_, oldCount, err = parseSpan(fields[1][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q: %w", line, err)
	}
	newStart, newCount, err = parseSpan(fields[2][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q: %w", line, err)
	}
	return oldCount, newCount, newStart, nil
}

func parseSpan(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 {
		return 0, 0, fmt.Errorf("bad line number %q", a)
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, fmt.Errorf("bad line count %q", b)
		}
	}
	return start, count, nil
}

// diffPath reads the path of a "+++ " header: "/dev/null" (deleted, "")
// or "b/path", possibly C-quoted.
func diffPath(s string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		// git ends a path containing a space with a tab, for patch(1).
		u, err := unquoteC(strings.TrimSuffix(s, "\t"))
		if err != nil {
			return "", err
		}
		s = u
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		// Non-git diffs may append a timestamp after a tab.
		s = s[:i]
	}
	p, ok := strings.CutPrefix(s, "b/")
	if !ok {
		return "", fmt.Errorf("new-file path %q lacks the b/ prefix", s)
	}
	return p, nil
}

// unquoteC undoes git's C-style quoting of a path: "..." with \\, \",
// \a \b \f \n \r \t \v and \ooo octal bytes.
func unquoteC(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Errorf("bad quoted path %s", s)
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", fmt.Errorf("bad quoted path %q", s)
		}
		switch c = s[i]; c {
		case '\\', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3':
			if i+2 >= len(s) {
				return "", fmt.Errorf("bad octal escape in %q", s)
			}
			v, err := strconv.ParseUint(s[i:i+3], 8, 8)
			if err != nil {
				return "", fmt.Errorf("bad octal escape in %q", s)
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			return "", fmt.Errorf("bad escape \\%c in %q", c, s)
		}
	}
	return b.String(), nil
}
