package all

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// setAt sets the value at path in a decoded JSON document (objects as map[string]any, arrays
// as []any): "result.paths[0][0].as" walks keys and indexes; the last key is set (added or
// replaced) to the raw JSON v, written as given (5.0 stays 5.0).
func setAt(doc map[string]any, path, v string) error {
	steps := pathSteps(path)
	var cur any = doc
	for i, s := range steps[:len(steps)-1] {
		next, err := step(cur, s)
		if err != nil {
			return fmt.Errorf("%s: at %s: %v", path, joinSteps(steps[:i+1]), err)
		}
		cur = next
	}
	obj, ok := cur.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: not an object", path)
	}
	obj[steps[len(steps)-1]] = json.RawMessage(v)
	return nil
}

var reStep = regexp.MustCompile(`[^.\[\]]+|\[\d+\]`)

// pathSteps splits "a.b[0][1].c" into a, b, [0], [1], c.
func pathSteps(path string) []string { return reStep.FindAllString(path, -1) }

func joinSteps(steps []string) string {
	out := ""
	for _, s := range steps {
		if s[0] != '[' && out != "" {
			out += "."
		}
		out += s
	}
	return out
}

func step(cur any, s string) (any, error) {
	if s[0] == '[' {
		arr, ok := cur.([]any)
		i, _ := strconv.Atoi(s[1 : len(s)-1])
		if !ok || i >= len(arr) {
			return nil, fmt.Errorf("no element %s", s)
		}
		return arr[i], nil
	}
	obj, ok := cur.(map[string]any)
	if !ok || obj[s] == nil {
		return nil, fmt.Errorf("no field %s", s)
	}
	return obj[s], nil
}

func TestSetAtWritesTheRawValueAtAPath(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(`{"result":{"paths":[[{"ip":"192.0.2.1"}]]}}`), &doc); err != nil {
		t.Fatal(err)
	}
	if err := setAt(doc, "result.paths[0][0].mtu", `1500.0`); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(doc)
	if want := `{"result":{"paths":[[{"ip":"192.0.2.1","mtu":1500.0}]]}}`; string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	if err := setAt(doc, "result.paths[1][0].mtu", `1`); err == nil {
		t.Fatal("a path through a missing element was taken")
	}
}
