package probekit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// keyFrame is one object or array open while UniqueKeys reads.
type keyFrame struct {
	object bool
	keys   [][]byte        // the object's keys so far, while few (input's bytes when unescaped)
	many   map[string]bool // then all of them
	name   []byte          // the object's current key
	index  int             // the array's current element
}

// seenKeysInline is how many keys an object holds in a slice before a map: most objects of a
// result have a handful, and a slice scanned is cheaper than a map made for each.
const seenKeysInline = 8

// add records key and reports whether the object had it already.
func (f *keyFrame) add(key []byte) bool {
	if f.many != nil {
		if f.many[string(key)] {
			return true
		}
		f.many[string(key)] = true
		return false
	}
	for _, k := range f.keys {
		if bytes.Equal(k, key) {
			return true
		}
	}
	if len(f.keys) < seenKeysInline {
		f.keys = append(f.keys, key)
		return false
	}
	f.many = make(map[string]bool, 2*seenKeysInline)
	for _, k := range f.keys {
		f.many[string(k)] = true
	}
	f.many[string(key)], f.keys = true, nil
	return false
}

// UniqueKeys reports the first key given twice in one object, at any depth, by line, column and
// JSON path. encoding/json keeps the last copy of a repeated key and other readers (Telegraf's,
// the job's were) the first: a message two readers read differently must not pass (issue 46).
// Keys are compared as a reader sees them, escapes undone ("a" and "\u0061" are one key).
// One pass over the first JSON value's bytes, no tokens made; memory bounded by the keys of the
// objects open at once. Malformed input is left to the decoder, which names its position.
func UniqueKeys(input []byte) error {
	s := keyScanner{in: input}
	return s.value()
}

// keyScanner reads one JSON value from in, byte by byte, from pos.
type keyScanner struct {
	in    []byte
	pos   int
	stack []*keyFrame
	free  []*keyFrame // frames closed, to reuse
}

// errMalformed stops the scan: the decoder, not UniqueKeys, explains malformed input.
var errMalformed = errors.New("malformed JSON")

func (s *keyScanner) value() error {
	err := s.scan()
	if errors.Is(err, errMalformed) {
		return nil
	}
	return err
}

// scan reads the first value: iteratively, so depth costs no Go stack.
func (s *keyScanner) scan() error {
	for {
		if err := s.element(); err != nil {
			return err
		}
		// one value done: close what it ends, then move to the next element or key
		for {
			if len(s.stack) == 0 {
				return nil
			}
			top := s.stack[len(s.stack)-1]
			c := s.next()
			switch {
			case c == ',' && top.object:
				if err := s.key(top); err != nil {
					return err
				}
			case c == ',':
				top.index++
			case c == '}' && top.object, c == ']' && !top.object:
				s.pop()
				continue
			default:
				return errMalformed
			}
			break
		}
	}
}

// element reads a value, or opens an object or array and reads up to its first value.
func (s *keyScanner) element() error {
	for {
		switch c := s.next(); c {
		case '{':
			f := s.push(true)
			if s.peek() == '}' {
				s.pos++
				s.pop()
				return nil
			}
			if err := s.key(f); err != nil {
				return err
			}
		case '[':
			s.push(false)
			if s.peek() == ']' {
				s.pos++
				s.pop()
				return nil
			}
		case '"':
			if _, _, ok := s.str(); !ok {
				return errMalformed
			}
			return nil
		case 0:
			return errMalformed
		default:
			// a number, true, false or null: up to the next delimiter
			for s.pos < len(s.in) && !endsScalar(s.in[s.pos]) {
				s.pos++
			}
			return nil
		}
	}
}

// key reads `"name":` of object f and refuses a name f has already.
func (s *keyScanner) key(f *keyFrame) error {
	if s.next() != '"' {
		return errMalformed
	}
	start, escaped, ok := s.str()
	if !ok {
		return errMalformed
	}
	name := s.in[start : s.pos-1]
	if escaped || !ascii(name) { // as a reader sees it: escapes undone, bad UTF-8 replaced
		var read string
		if json.Unmarshal(s.in[start-1:s.pos], &read) != nil {
			return errMalformed
		}
		name = []byte(read)
	}
	end := s.pos
	if f.add(name) {
		f.name = name
		line, col := lineCol(s.in, int64(end))
		return fmt.Errorf("line %d col %d: JSON path %s: key %q given twice in one object", line, col, keyPath(s.stack), name)
	}
	f.name = name
	if s.next() != ':' {
		return errMalformed
	}
	return nil
}

// str reads a string whose opening quote was read: the offset of its first byte, whether it
// has escapes, and false when it does not end.
func (s *keyScanner) str() (int, bool, bool) {
	start, escaped := s.pos, false
	for s.pos < len(s.in) {
		i := bytes.IndexAny(s.in[s.pos:], `"\`)
		if i < 0 {
			break
		}
		s.pos += i
		if s.in[s.pos] == '"' {
			s.pos++
			return start, escaped, true
		}
		escaped = true
		s.pos += 2
	}
	s.pos = len(s.in)
	return start, escaped, false
}

// endsScalar is whether c ends a number, true, false or null.
func endsScalar(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// next is the next byte that is not white space, consumed; 0 at the end.
func (s *keyScanner) next() byte {
	c := s.peek()
	if c != 0 {
		s.pos++
	}
	return c
}

// peek is the next byte that is not white space, not consumed; 0 at the end.
func (s *keyScanner) peek() byte {
	for s.pos < len(s.in) {
		switch c := s.in[s.pos]; c {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return c
		}
	}
	return 0
}

func (s *keyScanner) push(object bool) *keyFrame {
	var f *keyFrame
	if n := len(s.free); n > 0 {
		f, s.free = s.free[n-1], s.free[:n-1]
		*f = keyFrame{keys: f.keys[:0]}
	} else {
		f = &keyFrame{}
	}
	f.object = object
	s.stack = append(s.stack, f)
	return f
}

func (s *keyScanner) pop() {
	n := len(s.stack)
	s.free = append(s.free, s.stack[n-1])
	s.stack = s.stack[:n-1]
}

// keyPath is the JSON path of the innermost value: a.b[2].c
func keyPath(stack []*keyFrame) string {
	var b strings.Builder
	for i, f := range stack {
		switch {
		case !f.object:
			fmt.Fprintf(&b, "[%d]", f.index)
		case i > 0:
			b.WriteByte('.')
			b.Write(f.name)
		default:
			b.Write(f.name)
		}
	}
	return b.String()
}
