package throughput

import (
	"bytes"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
	"longhaul/probes/probekit/golden"
)

// Every parser must answer any input in time linear in it, in bounded memory and with a
// bounded message: a 50 MB file of garbage or a single 50 MB line is refused within seconds,
// allocating well under 300 MB in all, with an error under 1 KB that says where.
const (
	hostileSize  = 50 << 20
	maxAllocated = 300 << 20
	maxDuration  = 3 * time.Second // of CPU, each test's own budget; the requirement is 10 s
)

// hostileInputs are the inputs every parser is held to.
func hostileInputs() map[string][]byte {
	rng := rand.New(rand.NewSource(1))
	garbage := make([]byte, hostileSize)
	rng.Read(garbage)
	oneLine := bytes.Repeat([]byte("0.0-1.0 sec 1 MBytes 8 Mbits/sec "), hostileSize/33)
	jsonLine := append([]byte(`{"start": {"version": "`), bytes.Repeat([]byte("x"), hostileSize)...)
	return map[string][]byte{
		"50MB random bytes":                  garbage,
		"50MB single line":                   oneLine,
		"50MB single line, open JSON string": jsonLine,
		"50MB single line of JSON numbers":   append([]byte(`{"intervals": [`), bytes.Repeat([]byte("1,"), hostileSize/2)...),
	}
}

type parser func([]byte) ([]sample.Sample, error)

// checkBounded parses each hostile input and holds the parser to the bounds.
func checkBounded(t *testing.T, parse parser) {
	golden.Long(t)
	for name, in := range hostileInputs() {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start, cpu := time.Now(), golden.CPUTime()
			ss, err := parse(in)
			took, cpu := time.Since(start), golden.CPUTime()-cpu
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			if err == nil {
				t.Fatalf("accepted as %d samples", len(ss))
			}
			msg := err.Error()
			t.Logf("%v (%v of CPU), %d MB allocated: %s", took.Round(time.Millisecond), cpu.Round(time.Millisecond), allocated>>20, msg)
			if len(msg) > maxErrBytes {
				t.Errorf("error of %d bytes", len(msg))
			}
			if !strings.Contains(msg, "line ") && !strings.Contains(msg, "JSON path") {
				t.Errorf("error does not say where: %s", msg)
			}
			if allocated > maxAllocated {
				t.Errorf("%d MB allocated", allocated>>20)
			}
			if cpu > maxDuration {
				t.Errorf("took %v of CPU", cpu)
			}
		})
	}
}

func importMeta(withTS bool) probekit.Meta {
	m := probekit.Meta{Src: "a", Dst: "b", ProbeID: "import", RunID: "run-1"}
	if withTS {
		m.Start = time.UnixMilli(1795482080000)
	}
	return m
}

// checkErrorBound is what every fuzz target checks of an error besides not panicking.
func checkErrorBound(t *testing.T, err error) {
	if err != nil && len(err.Error()) > maxErrBytes {
		t.Fatalf("error of %d bytes: %.200s…", len(err.Error()), err)
	}
}
