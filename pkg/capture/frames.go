package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
)

// WriteFrames writes every frame of the captures as one JSON line,
// {"revision":..., "seq":..., "dir":"send"|"recv", "data":<the raw frame>},
// with each of the secrets replaced by [redacted] where it appears inside
// a JSON string (values a caller substituted into probe arguments).
func WriteFrames(w io.Writer, caps []*Capture, secrets []string) error {
	var olds [][]byte
	for _, s := range secrets {
		b, _ := json.Marshal(s)
		if len(b) > 2 {
			olds = append(olds, b[1:len(b)-1])
		}
	}
	// Longest first: a secret that contains another is replaced whole.
	slices.SortFunc(olds, func(a, b []byte) int { return len(b) - len(a) })
	bw := bufio.NewWriter(w)
	for _, c := range caps {
		for _, fr := range c.Frames {
			data := []byte(fr.Data)
			for _, old := range olds {
				if bytes.Contains(data, old) {
					data = bytes.ReplaceAll(data, old, []byte("[redacted]"))
				}
			}
			line, err := json.Marshal(struct {
				Revision string          `json:"revision"`
				Seq      int             `json:"seq"`
				Dir      string          `json:"dir"`
				Data     json.RawMessage `json:"data"`
			}{c.RequestedVersion, fr.Seq, string(fr.Dir), data})
			if err != nil {
				return err
			}
			bw.Write(line)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}
