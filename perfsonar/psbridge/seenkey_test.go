package psbridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every golden result of every kind: converted twice, one key; a figure changed, another key of
// the same run.
func TestAResultIsRememberedByItsRunAndWhatItSays(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "probes", "*", "testdata", "pscheduler", "*", "input.json"))
	if len(paths) < 5 {
		t.Fatalf("%d golden results", len(paths))
	}
	for _, p := range paths {
		body, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		first, err1 := Convert(body)
		again, err2 := Convert(body)
		if err1 != nil || err2 != nil {
			continue // a golden case of a refusal
		}
		k1, err1 := first.SeenKey()
		k2, err2 := again.SeenKey()
		if err1 != nil || err2 != nil || k1 != k2 || !strings.HasPrefix(k1, first.Key+" ") {
			t.Errorf("%s: %q %v, again %q %v", p, k1, err1, k2, err2)
		}
		first.Samples = first.Samples[:len(first.Samples)-1]
		if k, _ := first.SeenKey(); k == k1 {
			t.Errorf("%s: a copy with a sample less is remembered as the same result", p)
		}
	}
}

// What remembering a result by what it says costs beside converting it, for the fleet's
// commonest results (latencybg, trace) and a throughput run: `go test -bench Remember
// ./perfsonar/psbridge/` (docs/benchmarks.md).
func BenchmarkRememberAConvertedResult(b *testing.B) {
	for _, c := range []string{
		"latency/testdata/pscheduler/latencybg-powstream-archived",
		"path/testdata/pscheduler/schema-maximal",
		"throughput/testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit",
	} {
		body, err := os.ReadFile(filepath.Join("..", "..", "probes", c, "input.json"))
		if err != nil {
			b.Fatal(err)
		}
		conv, err := Convert(body)
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Base(c)
		b.Run(name+"/convert", func(b *testing.B) {
			for range b.N {
				if _, err := Convert(body); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/seen-key", func(b *testing.B) {
			for range b.N {
				if _, err := conv.SeenKey(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
