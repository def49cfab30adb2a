package probekit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

func TestKeysAreComparedAsAReaderSeesThem(t *testing.T) {
	for _, in := range []string{
		`{"src": "a", "\u0073rc": "b"}`,       // an escape spelling the same key
		`{"a\"b": 1, "a\u0022b": 2}`,          // an escaped quote, twice
		"{\"k\xff\": 1, \"k\xfe\": 2}",        // invalid UTF-8: both read as k\ufffd
		`{"x": {"y": [1, 2, {}]}, "x": null}`, // after a nested value
		`{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10, "a": 0}`, // past the inline keys
	} {
		if err := UniqueKeys([]byte(in)); err == nil {
			t.Errorf("%s: taken", in)
		}
	}
}

// FuzzUniqueKeysAgreesWithTheTokenReader: on every valid JSON text, the byte scanner says what
// encoding/json's tokens said, word for word (the position and the path included).
func FuzzUniqueKeysAgreesWithTheTokenReader(f *testing.F) {
	for _, s := range []string{
		`{"a": [{"b": 1, "b": 2}]}`, `{"a": {"b": {}}, "c": [1, 2, {"a": 1}]}`,
		`{"src": "a", "\u0073rc": "b"}`, "[1, {\"a\": true,\n \"b\": null, \"a\": -1.5e3}]",
		`{"": 1, "": 2}`, `[[[], {}], {"x": [{"y": 1, "y": 2}]}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		got, want := UniqueKeys(in), uniqueKeysByTokens(in)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: the scanner says %v, the tokens %v", in, got, want)
		}
	})
}

// BenchmarkUniqueKeys reads the bridge's commonest posts (latencybg, trace) and a throughput
// run, with the scanner and with encoding/json's tokens: `go test -bench UniqueKeys
// ./probes/probekit/` (docs/benchmarks.md).
func BenchmarkUniqueKeys(b *testing.B) {
	for _, c := range []string{
		"latency/testdata/pscheduler/latencybg-powstream-archived",
		"path/testdata/pscheduler/schema-maximal",
		"throughput/testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit",
	} {
		in, err := os.ReadFile(filepath.Join("..", c, "input.json"))
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range []struct {
			name string
			f    func([]byte) error
		}{{"scanner", UniqueKeys}, {"tokens", uniqueKeysByTokens}} {
			b.Run(filepath.Base(c)+"/"+r.name, func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					if err := r.f(in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
