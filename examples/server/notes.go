package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Note is one note of the in-memory notebook.
type Note struct {
	ID        string    `json:"id" jsonschema:"note id, e.g. n1"`
	Title     string    `json:"title"`
	Body      string    `json:"body" jsonschema:"Markdown text"`
	Tags      []string  `json:"tags,omitempty"`
	Pinned    bool      `json:"pinned,omitempty" jsonschema:"pinned notes are listed first by clients"`
	CreatedAt time.Time `json:"created_at" jsonschema:"creation time, RFC 3339"`
}

// notebook is a tiny, concurrency-safe note store. Everything is lost when
// the server exits: this is an example, not a database.
type notebook struct {
	mu     sync.Mutex
	notes  map[string]*Note
	nextID int
}

func newNotebook() *notebook {
	nb := &notebook{notes: map[string]*Note{}}
	// A few notes so that the example has something to show.
	created := time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)
	nb.add("Welcome", "This notebook lives in memory.", []string{"meta"}, true, created)
	nb.add("Groceries", "Milk, eggs, coffee.", []string{"home"}, false, created.Add(time.Hour))
	nb.add("Release checklist", "Tag, build, publish, announce.", []string{"work", "release"}, false, created.Add(2*time.Hour))
	return nb
}

func (nb *notebook) add(title, body string, tags []string, pinned bool, at time.Time) *Note {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	nb.nextID++
	n := &Note{ID: fmt.Sprintf("n%d", nb.nextID), Title: title, Body: body, Tags: tags, Pinned: pinned, CreatedAt: at}
	nb.notes[n.ID] = n
	return n
}

func (nb *notebook) get(id string) (Note, bool) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	n, ok := nb.notes[id]
	if !ok {
		return Note{}, false
	}
	return *n, true
}

// update applies f to the note with the given id.
func (nb *notebook) update(id string, f func(*Note)) (Note, bool) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	n, ok := nb.notes[id]
	if !ok {
		return Note{}, false
	}
	f(n)
	return *n, true
}

func (nb *notebook) remove(id string) bool {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	_, ok := nb.notes[id]
	delete(nb.notes, id)
	return ok
}

// search returns the notes whose title or body contains query (case
// insensitively) and that carry tag, if tag is not empty, oldest first.
func (nb *notebook) search(query, tag string) []Note {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	q := strings.ToLower(query)
	var out []Note
	for _, n := range nb.notes {
		text := strings.ToLower(n.Title + "\n" + n.Body)
		if strings.Contains(text, q) && (tag == "" || slices.Contains(n.Tags, tag)) {
			out = append(out, *n)
		}
	}
	slices.SortFunc(out, func(a, b Note) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out
}
