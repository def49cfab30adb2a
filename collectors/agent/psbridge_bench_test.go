package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"longhaul/collectors/config"
	"longhaul/ingest/schema"
)

// The bridge's CPU a result before the spool: convert (decode, samples, who may report them, the
// seen key) and encode (JSON, the contract's check). At WLCG's shape almost every result is a
// latencybg one (a result per pair per minute), a traceroute every ten minutes.
func BenchmarkConvertAndEncode(b *testing.B) {
	reg, err := schema.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, file string }{
		{"latencybg", "../../probes/latency/testdata/pscheduler/latencybg-powstream-archived/input.json"},
		{"trace", "../../probes/path/testdata/pscheduler/traceroute-ecmp-3-hops/input.json"},
	} {
		body, err := os.ReadFile(tc.file)
		if err != nil {
			b.Fatal(err)
		}
		psb, err := newPSBridge(config.PSBridge{MaxSamples: 1000, SeenCapacity: 1000, SeenFile: filepath.Join(b.TempDir(), "seen")})
		if err != nil {
			b.Fatal(err)
		}
		enc := &encoder{reg: reg, now: time.Now}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				conv, _, err := psb.convert(body, "")
				if err != nil {
					b.Fatal(err)
				}
				for _, s := range conv.Samples {
					if _, dead, err := enc.encode(s); err != nil || dead {
						b.Fatalf("dead %v: %v", dead, err)
					}
				}
			}
		})
	}
}
