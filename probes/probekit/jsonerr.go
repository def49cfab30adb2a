package probekit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeJSON decodes input into v and explains a failure by line and column (syntax) or by
// JSON path (a value of the wrong type), as `longhaul-probe parse` must. A key given twice in one
// object is refused (UniqueKeys).
func DecodeJSON(input []byte, v any) error {
	if len(bytes.TrimSpace(input)) == 0 {
		return fmt.Errorf("empty input: no JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	if err := dec.Decode(v); err != nil {
		return JSONError(input, err)
	}
	if dec.More() {
		off := dec.InputOffset()
		line, col := lineCol(input, off)
		return fmt.Errorf("line %d col %d: more than one JSON value (import one run per file)", line, col)
	}
	return UniqueKeys(input)
}

// JSONError locates a json decoding error.
func JSONError(input []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := lineCol(input, se.Offset)
		return fmt.Errorf("line %d col %d: invalid JSON: %v", line, col, se)
	case errors.As(err, &te):
		path := te.Field
		if path == "" {
			path = "(top level)"
		}
		return fmt.Errorf("JSON path %s: got %s, want %s", path, te.Value, te.Type)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON: %v", err)
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

func lineCol(input []byte, off int64) (int, int) {
	if off > int64(len(input)) {
		off = int64(len(input))
	}
	before := input[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// PathError is a value at a JSON path that is well-formed but not acceptable.
func PathError(path, format string, args ...any) error {
	return fmt.Errorf("JSON path %s: %s", path, fmt.Sprintf(format, args...))
}

// DecodeAt decodes a part of a message already read (a json.RawMessage found at path) and
// names the full JSON path of a value of the wrong type.
func DecodeAt(path string, raw []byte, v any) error {
	err := json.Unmarshal(raw, v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		field := path
		if te.Field != "" {
			field += "." + te.Field
		}
		return fmt.Errorf("JSON path %s: got %s, want %s", field, te.Value, te.Type)
	}
	return PathError(path, "%v", err)
}
