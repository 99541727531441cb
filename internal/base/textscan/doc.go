// Package textscan is the one scanner for model-visible text: the tool,
// prompt and resource descriptions, titles, schema descriptions and server
// instructions that a model reads and a reviewer may not.
//
// It owns four things, so that the lint (pkg/spec), the diff (pkg/diff)
// and the renderers (pkg/report) can never disagree about them:
//
//   - Which characters are hidden (Hidden): controls, format characters
//     (zero-width, bidirectional controls, BOM, soft hyphen, tag
//     characters), line and paragraph separators, variation selectors,
//     private use and the blank fillers that render as nothing. The
//     escapers of the renderers escape exactly these; HiddenRunes finds
//     them in text, minus the ones a legitimate sequence needs (a joiner
//     inside an emoji, a non-joiner in a Persian word, a flag's tags).
//   - The patterns of instructions aimed at the model and of references to
//     secrets, built in and configured (Scanner). Each built-in pattern is
//     either precise, reported wherever it appears (the lint), or loose,
//     reported only when a change adds it (the diff). Configured patterns
//     are the user's choice and run everywhere. The built-in ones are
//     compiled on first use, not at start-up: every command links this
//     package and most never scan text.
//   - The walk over the text of a JSON Schema (WalkSchema), with an
//     explicit depth bound. Reaching the bound is returned to the caller,
//     which reports it: text that was not read is never taken for clean.
//   - The names of hidden characters in messages (Label).
//
// Nothing here reads the environment, the clock or the process's streams.
package textscan
