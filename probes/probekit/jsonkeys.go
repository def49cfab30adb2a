package probekit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// keyFrame is one object or array open while UniqueKeys reads.
type keyFrame struct {
	keys    map[string]bool // the object's keys so far; nil for an array
	name    string          // the object's current key
	index   int             // the array's current element
	wantKey bool            // the object's next token is a key
}

// UniqueKeys reports the first key given twice in one object, at any depth, by line, column and
// JSON path. encoding/json keeps the last copy of a repeated key and other readers (Telegraf's,
// the job's were) the first: a message two readers read differently must not pass (issue 46).
// One pass over the first JSON value's tokens; memory bounded by the keys of the objects open at
// once. Malformed input is left to the decoder, which names its position.
func UniqueKeys(input []byte) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var stack []*keyFrame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *keyFrame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.keys != nil && top.wantKey {
			key, ok := tok.(string)
			if !ok { // the object's closing brace
				stack = stack[:len(stack)-1]
				if !valueDone(stack) {
					return nil
				}
				continue
			}
			if top.keys[key] {
				line, col := lineCol(input, dec.InputOffset())
				top.name = key
				return fmt.Errorf("line %d col %d: JSON path %s: key %q given twice in one object", line, col, keyPath(stack), key)
			}
			top.keys[key], top.name, top.wantKey = true, key, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &keyFrame{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &keyFrame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if !valueDone(stack) {
			return nil // the first value is read whole
		}
	}
}

// valueDone moves the innermost open object or array past one value; false when none is open.
func valueDone(stack []*keyFrame) bool {
	if len(stack) == 0 {
		return false
	}
	top := stack[len(stack)-1]
	if top.keys != nil {
		top.wantKey = true
	} else {
		top.index++
	}
	return true
}

// keyPath is the JSON path of the innermost value: a.b[2].c
func keyPath(stack []*keyFrame) string {
	var b strings.Builder
	for i, f := range stack {
		switch {
		case f.keys == nil:
			fmt.Fprintf(&b, "[%d]", f.index)
		case i > 0:
			b.WriteString("." + f.name)
		default:
			b.WriteString(f.name)
		}
	}
	return b.String()
}
