package probekit

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// Int is a JSON integer as pScheduler's result schemas take it. They are checked with JSON
// Schema draft 7 (python-pscheduler's jsonval.py), where "integer" is any number without a
// fractional part: 5, 5.0 and 5e0 alike. Python writes a float that holds a whole number as
// 5.0, which encoding/json refuses for an int64; Int takes it. null leaves the value unchanged
// (a *Int stays nil).
type Int int64

// maxJSONInt is the largest whole number a float64 holds exactly (2^53).
const maxJSONInt = 1 << 53

// UnmarshalJSON takes a number with no fractional part within ±2^53.
func (n *Int) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if v, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*n = Int(v)
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || v != math.Trunc(v) || math.Abs(v) > maxJSONInt {
		return &json.UnmarshalTypeError{Value: "number " + Snippet(string(b)), Type: reflect.TypeOf(int64(0))}
	}
	*n = Int(v)
	return nil
}

// Ptr is the value as an *int64, nil for nil.
func (n *Int) Ptr() *int64 {
	if n == nil {
		return nil
	}
	v := int64(*n)
	return &v
}
