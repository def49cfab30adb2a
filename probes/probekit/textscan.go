package probekit

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLineBytes bounds one line of a text importer's input. The longest real lines are a
// few hundred bytes (a traceroute hop with three names, a report's table row); a longer
// one is not tool output, and refusing it early keeps the regular expressions, the copies
// and the error messages small whatever the input.
const MaxLineBytes = 4096

// snippetRunes is how much of a line an error quotes.
const snippetRunes = 48

// TextLine is a meaningful line (as Lines keeps it) with the column, counted from 1 in the
// input line, where its trimmed Text starts, so errors can point into the input.
type TextLine struct {
	Line
	Col int
}

// PosError locates a parse error by line and column (both from 1) and quotes a short
// snippet from there: its message is bounded (well under 1 KB) whatever the input. It reads
// `line 3: not a line of ping output (col 1: "hello")`, starting the way LineError does.
type PosError struct {
	Line, Col int
	Msg       string
	Snippet   string
}

func (e *PosError) Error() string {
	if e.Snippet == "" {
		return fmt.Sprintf("line %d: %s (col %d)", e.Line, e.Msg, e.Col)
	}
	return fmt.Sprintf("line %d: %s (col %d: %q)", e.Line, e.Msg, e.Col, e.Snippet)
}

// ErrorAt is a PosError at byte offset off of l.Text, quoting the text from there. The
// message (format and args) should not quote the input itself: that is the snippet's job.
func (l TextLine) ErrorAt(off int, format string, args ...any) error {
	if off < 0 || off > len(l.Text) {
		off = 0
	}
	return &PosError{Line: l.No, Col: l.Col + off, Msg: Bounded(fmt.Sprintf(format, args...)), Snippet: Snippet(l.Text[off:])}
}

// Errorf is a PosError at the start of the line.
func (l TextLine) Errorf(format string, args ...any) error { return l.ErrorAt(0, format, args...) }

// ErrorAtToken is a PosError at the first occurrence of tok in l.Text (the line's start when
// it is not found).
func (l TextLine) ErrorAtToken(tok, format string, args ...any) error {
	return l.ErrorAt(max(0, strings.Index(l.Text, tok)), format, args...)
}

// Snippet is the start of s, at most 48 characters, valid UTF-8, with "…" when cut.
func Snippet(s string) string {
	n := 0
	for i := range s {
		if n == snippetRunes {
			return strings.ToValidUTF8(s[:i], "?") + "…"
		}
		n++
	}
	return strings.ToValidUTF8(s, "?")
}

// Bounded cuts a message built from input to 512 bytes, on a character boundary.
func Bounded(s string) string {
	const limit = 512
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// EachLine calls fn for every meaningful line of input, in order, as Lines would return
// them, without splitting the whole input first: time is linear in the input and memory
// is one line. A line longer than MaxLineBytes stops the scan with an error, and so does
// the first error fn returns.
func EachLine(input []byte, fn func(TextLine) error) error {
	no := 0
	for len(input) > 0 {
		no++
		raw := input
		if i := bytes.IndexByte(input, '\n'); i >= 0 {
			raw, input = input[:i], input[i+1:]
		} else {
			input = nil
		}
		if len(raw) > MaxLineBytes {
			return &PosError{Line: no, Col: MaxLineBytes + 1, Msg: fmt.Sprintf("line longer than %d bytes: not tool output", MaxLineBytes), Snippet: Snippet(string(raw[:snippetRunes*4]))}
		}
		raw = bytes.TrimRight(raw, "\r")
		trimmed := bytes.TrimLeftFunc(raw, unicode.IsSpace)
		col := len(raw) - len(trimmed) + 1
		t := strings.TrimSpace(string(trimmed))
		switch {
		case t == "", t == "...", t == "…", strings.HasPrefix(t, "```"):
			continue
		case strings.HasPrefix(t, "|") && strings.HasSuffix(t, "|") && len(t) > 1:
			if t = tableRow(t); t == "" {
				continue
			}
		}
		if err := fn(TextLine{Line: Line{No: no, Text: t}, Col: col}); err != nil {
			return err
		}
	}
	return nil
}

// CheckSize refuses an input larger than limit before it is parsed (JSON importers: the
// decoder would otherwise hold all of it), naming what one run can be.
func CheckSize(input []byte, limit int, what string) error {
	if len(input) > limit {
		return fmt.Errorf("input of %d bytes: larger than %d KB, more than one %s", len(input), limit>>10, what)
	}
	return nil
}
