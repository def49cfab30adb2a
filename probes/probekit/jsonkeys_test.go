package probekit

import (
	"strings"
	"testing"
)

func TestAKeyGivenTwiceInOneObjectIsRefusedAtAnyDepth(t *testing.T) {
	for _, c := range []struct{ in, path string }{
		{`{"src": "victim", "dst": "b", "src": "me"}`, `src`},
		{"{\"test\": {\"spec\": {\"source\": \"a\",\n \"source\": \"b\"}}}", `test.spec.source`},
		{`{"result": {"hops": [{"ttl": 1}, {"ttl": 2, "ttl": 3}]}}`, `result.hops[1].ttl`},
		{`[{"a": 1}, {"b": {"c": [1, {"d": 0, "d": 1}]}}]`, `[1].b.c[1].d`},
	} {
		err := UniqueKeys([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), "JSON path "+c.path+": key") || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("%s: %v, want the path %s", c.in, err, c.path)
		}
	}
	var v any
	if err := DecodeJSON([]byte(`{"src": "victim", "src": "me"}`), &v); err == nil || !strings.Contains(err.Error(), `key "src" given twice`) {
		t.Errorf("DecodeJSON took a repeated key: %v", err)
	}
	if err := DecodeJSON([]byte("{\"a\": 1,\n\"a\": 2}"), &v); err == nil || !strings.HasPrefix(err.Error(), "line 2 col") {
		t.Errorf("the position: %v", err)
	}
}

func TestTheSameKeyInDifferentObjectsIsNoRepeat(t *testing.T) {
	for _, in := range []string{
		`{"a": {"x": 1}, "b": {"x": 1}, "x": [{"x": 1}, {"x": 2}]}`,
		`{"a": {}, "b": [], "c": [[], {}], "d": {"e": {}}, "e": null}`,
		`[]`, `{}`, `"x"`, `12`,
		`{"a": 1} {"a": 2}`, // one value: the second is DecodeJSON's to refuse
	} {
		if err := UniqueKeys([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func FuzzUniqueKeys(f *testing.F) {
	f.Add([]byte(`{"a": [{"b": 1, "b": 2}]}`))
	f.Add([]byte(`{"a": {"b": {}}, "c": [1, 2, {"a": 1}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		err := UniqueKeys(in)
		if err != nil && len(err.Error()) > 300+6*len(in) {
			t.Fatalf("an error longer than its input: %d bytes", len(err.Error()))
		}
	})
}
