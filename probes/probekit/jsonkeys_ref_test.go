package probekit

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// uniqueKeysByTokens is UniqueKeys as it was until 2026-12-05, on encoding/json's tokens: the
// reference the byte scanner must agree with (FuzzUniqueKeysAgreesWithTheTokenReader). It read
// keys as encoding/json reads them, so it is the reader whose view the scanner must keep.
func uniqueKeysByTokens(input []byte) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	type frame struct {
		keys    map[string]bool
		name    string
		index   int
		wantKey bool
	}
	var stack []*frame
	done := func() bool {
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
	path := func() string {
		var b bytes.Buffer
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
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.keys != nil && top.wantKey {
			key, ok := tok.(string)
			if !ok {
				stack = stack[:len(stack)-1]
				if !done() {
					return nil
				}
				continue
			}
			if top.keys[key] {
				line, col := lineCol(input, dec.InputOffset())
				top.name = key
				return fmt.Errorf("line %d col %d: JSON path %s: key %q given twice in one object", line, col, path(), key)
			}
			top.keys[key], top.name, top.wantKey = true, key, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if !done() {
			return nil
		}
	}
}
