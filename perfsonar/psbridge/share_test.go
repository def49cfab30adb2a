package psbridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/ingest/schema"
)

func TestASharedKeyIsReadBackAsTheSameDigestAndValidates(t *testing.T) {
	result, err := os.ReadFile("../../probes/throughput/testdata/pscheduler/iperf3-tcp-2streams-tbf20mbit/input.json")
	if err != nil {
		t.Fatal(err)
	}
	conv, err := Convert(result)
	if err != nil {
		t.Fatal(err)
	}
	kafkaKey, msg, ok := EncodeShare(conv, conv.Key, "psbridge-cern")
	if !ok {
		t.Fatal("not shared")
	}
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Validate(msg); err != nil {
		t.Fatalf("%s: %v", msg, err)
	}
	h := conv.Samples[0].Head()
	s, err := DecodeShare(msg)
	if err != nil || s.Digest != Digest(conv.Key) || s.Bridge != "psbridge-cern" || s.Src != h.Src || s.Dst != h.Dst || s.TS != h.TS || string(kafkaKey) != h.Key() {
		t.Fatalf("%+v %v", s, err)
	}
	if _, _, ok := EncodeShare(Converted{Key: "pscheduler-empty"}, "pscheduler-empty", "psbridge-cern"); ok {
		t.Fatal("a result without samples shared")
	}
	// another bridge's seen keys take it by its digest: the key itself is then a duplicate there
	other, err := OpenSeen(filepath.Join(t.TempDir(), "seen.log"), 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if fresh, err := other.AddDigest(s.Digest); !fresh || err != nil || !other.Has(conv.Key) {
		t.Fatalf("fresh %v, err %v, has %v", fresh, err, other.Has(conv.Key))
	}
	if fresh, err := other.AddDigest(s.Digest); fresh || err != nil {
		t.Fatalf("again: fresh %v, err %v", fresh, err)
	}
}

func TestASharedKeyThatCannotBeReadSaysWhy(t *testing.T) {
	for msg, want := range map[string]string{
		`not json`: "not JSON",
		`{"schema":"probe_request","version":2,"digest":"00","bridge":"b"}`:                   `schema "probe_request"`,
		`{"schema":"psbridge_seen","version":1,"digest":"00112233445566778899aabbccddeeff"}`:  "without its bridge",
		`{"schema":"psbridge_seen","version":1,"bridge":"` + strings.Repeat("b", 2100) + `"}`: "more than 2048",
	} {
		if _, err := DecodeShare([]byte(msg)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60s: %v, want %q", msg, err, want)
		}
	}
	s, err := OpenSeen(filepath.Join(t.TempDir(), "seen.log"), 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, d := range []string{"", "00", "https://ps.example.org/runs/1", strings.Repeat("zz", 16), strings.Repeat("0", 34)} {
		if fresh, err := s.AddDigest(d); fresh || err == nil {
			t.Errorf("%q: fresh %v, err %v", d, fresh, err)
		}
	}
	if s.Len() != 0 {
		t.Fatalf("%d keys kept from malformed digests", s.Len())
	}
}

func FuzzDecodeShare(f *testing.F) {
	f.Add([]byte(`{"schema":"psbridge_seen","version":1,"src":"a","dst":"b","probe_id":"p","ts":1796328000000,"digest":"00112233445566778899aabbccddeeff","bridge":"b"}`))
	f.Add([]byte(`{"schema":"psbridge_seen","version":1,"digest":"zz","bridge":"b","ts":1}`))
	dir := f.TempDir()
	s, err := OpenSeen(filepath.Join(dir, "seen.log"), 1000)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sh, err := DecodeShare(b)
		if err != nil {
			return
		}
		if fresh, err := s.AddDigest(sh.Digest); fresh && err == nil && len(sh.Digest) != 32 {
			t.Fatalf("kept a digest of %d characters", len(sh.Digest))
		}
	})
}
