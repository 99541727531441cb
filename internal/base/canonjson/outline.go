package canonjson

import "errors"

// Outline is what one pass over a document (OutlineOf) learns: whether it
// is JSON, what CheckUnique would say of it, and where the members of its
// top-level object lie, so that a reader can take each member's bytes as
// a sub-slice of the document instead of decoding it whole.
type Outline struct {
	// Object: the top-level value is an object; Members are its
	// members, in document order (repeats included).
	Object  bool
	Members []Member
	// Deep: some value is nested deeper than MaxDepth. Audit refuses
	// such a document, so CheckUnique has nothing to say of it.
	Deep bool
	// Duplicate is what CheckUnique returns: the first repeated member
	// name in Audit's order, nil when there is none or when Deep.
	Duplicate *DuplicateKeyError
}

// Member is one member of the top-level object.
type Member struct {
	Name string // decoded
	// Start and End delimit the value in the document.
	Start, End int
	// Array: the value is an array; Elements are the spans of its
	// elements.
	Array    bool
	Elements [][2]int
}

// MaxSyntaxDepth is how deeply encoding/json lets arrays and objects nest
// (its scanner's limit): a document nested deeper is not JSON to it.
const MaxSyntaxDepth = 10000

// errSyntaxDepth is OutlineOf's error for arrays and objects nested
// deeper than MaxSyntaxDepth.
var errSyntaxDepth = errors.New("JSON nested deeper than encoding/json reads")

// OutlineOf walks data once, checking its grammar as encoding/json does
// (nesting up to MaxSyntaxDepth, not MaxDepth), finding repeated member
// names as Audit does, and recording the spans of the top-level members
// and of the elements of those that are arrays. Its error is a syntax
// error.
func OutlineOf(data []byte) (*Outline, error) {
	o := &Outline{}
	a := auditor{Scanner: Scanner{data: data}, outline: o}
	a.SkipSpace()
	o.Object = a.Peek() == '{'
	if err := a.value(0); err != nil {
		return nil, err
	}
	if err := a.End(); err != nil {
		return nil, err
	}
	if !o.Deep {
		for _, p := range a.found {
			if p.Kind == ProblemDuplicateKey {
				o.Duplicate = &DuplicateKeyError{Key: p.Key, Pointer: p.Pointer, Count: p.Count}
				break
			}
		}
	}
	return o, nil
}

// checkNesting refuses an array or object at depth (the top-level value
// is at depth 0) when OutlineOf walks beyond encoding/json's limit.
// Audit's own limit, MaxDepth, is lower and checked for every value.
func (a *auditor) checkNesting(depth int) error {
	if a.outline != nil && depth >= MaxSyntaxDepth {
		return errSyntaxDepth
	}
	return nil
}
