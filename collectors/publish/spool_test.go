package publish

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func testOptions() Options {
	return Options{MaxBytes: 1 << 20, SegmentBytes: 16 << 10, Fsync: "always", Logger: quiet}
}

func openSpool(t *testing.T, dir string, opt Options) *Spool {
	t.Helper()
	s, err := Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rec makes a record whose value names it, so tests can follow it through the spool.
func rec(class Class, name string, pad int) Record {
	v := fmt.Sprintf(`{"name":%q,"pad":"%0*d"}`, name, pad, 0)
	return Record{Class: class, Topic: "longhaul.raw.throughput", Key: []byte("a|b"), Value: []byte(v)}
}

func appendN(t *testing.T, s *Spool, prefix string, n int, class Class) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := s.Append([]Record{rec(class, fmt.Sprintf("%s%04d", prefix, i), 100)}); err != nil {
			t.Fatal(err)
		}
	}
}

func names(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		var v struct{ Name string }
		if err := json.Unmarshal(r.Value, &v); err != nil {
			panic(err)
		}
		out[i] = v.Name
	}
	return out
}

func drain(t *testing.T, s *Spool, ack bool) []Record {
	t.Helper()
	var all []Record
	for {
		recs, err := s.Next(100)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			return all
		}
		for _, r := range recs {
			if ack {
				s.Ack(r.Seq)
			}
		}
		all = append(all, recs...)
	}
}

func TestSpoolHandsOutRecordsInAppendOrderAcrossSegments(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	appendN(t, s, "r", 500, ClassKeep) // ~70 KiB: several 16 KiB segments
	if st := s.Stats(); st.Segments < 4 || st.Samples != 500 || st.SampleBytes != 500*int64(encodedSize(&Record{Topic: "longhaul.raw.throughput", Key: []byte("a|b"), Value: rec(ClassKeep, "r0000", 100).Value})) {
		t.Fatalf("stats after append: %+v", st)
	}
	got := drain(t, s, true)
	if len(got) != 500 {
		t.Fatalf("drained %d records", len(got))
	}
	for i, r := range got {
		if want := fmt.Sprintf("r%04d", i); names(got[i : i+1])[0] != want || r.Seq != uint64(i) {
			t.Fatalf("record %d: %s seq %d", i, names(got[i : i+1])[0], r.Seq)
		}
	}
	if err := s.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.Samples != 0 || st.SampleBytes != 0 || st.Segments != 1 || st.InFlight != 0 || st.Acked != 500 {
		t.Fatalf("after acking everything, only the active segment should remain: %+v", st)
	}
}

func TestSpoolResendsWhatWasNotAcknowledgedAfterRestart(t *testing.T) {
	dir := t.TempDir()
	s := openSpool(t, dir, testOptions())
	appendN(t, s, "r", 100, ClassKeep)
	recs, _ := s.Next(60)
	for _, r := range recs[:50] {
		s.Ack(r.Seq)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2 := openSpool(t, dir, testOptions())
	if st := s2.Stats(); st.Samples != 50 || st.SampleBytes != 50*int64(len(recs[0].Value)+headerSize+8+1+2+len(recs[0].Topic)+2+len(recs[0].Key)) {
		t.Fatalf("reloaded %+v, want 50 samples", st)
	}
	appendN(t, s2, "new", 5, ClassKeep)
	got := names(drain(t, s2, true))
	if len(got) != 55 || got[0] != "r0050" || got[49] != "r0099" || got[50] != "new0000" || got[54] != "new0004" {
		t.Fatalf("after restart: %d records %v … %v", len(got), got[:3], got[len(got)-3:])
	}
}

// A crash (no Close, no checkpoint) loses nothing: records acknowledged since the last
// checkpoint are simply sent again.
func TestSpoolCrashBeforeCheckpointResendsAndLosesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, s, "r", 40, ClassKeep)
	if err := s.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	if n := len(drain(t, s, true)); n != 40 {
		t.Fatalf("drained %d", n)
	}
	s.crash()

	s2 := openSpool(t, dir, testOptions())
	got := drain(t, s2, true)
	if len(got) != 40 || got[0].Seq != 0 {
		t.Fatalf("after crash: %d records from seq %d; want all 40 again", len(got), got[0].Seq)
	}
}

func TestSpoolOutOfOrderAcksKeepTheWatermarkAtTheOldestUnacknowledged(t *testing.T) {
	dir := t.TempDir()
	s := openSpool(t, dir, testOptions())
	appendN(t, s, "r", 10, ClassKeep)
	recs, _ := s.Next(10)
	for _, r := range recs {
		if r.Seq != 3 {
			s.Ack(r.Seq)
		}
	}
	if st := s.Stats(); st.Samples != 1 || st.InFlight != 1 {
		t.Fatalf("stats: %+v", st)
	}
	s.Close()
	s2 := openSpool(t, dir, testOptions())
	got := names(drain(t, s2, true))
	if len(got) != 7 || got[0] != "r0003" {
		t.Fatalf("after restart: %v (seq 3 and the ones after it, acknowledged out of order, again)", got)
	}
}

func TestSpoolRewindHandsOutUnacknowledgedAgainInOrderSkippingAcknowledged(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	appendN(t, s, "r", 10, ClassKeep)
	recs, _ := s.Next(8)
	s.Ack(recs[1].Seq)
	s.Ack(recs[4].Seq)
	s.Rewind()
	got := names(drain(t, s, false))
	want := []string{"r0000", "r0002", "r0003", "r0005", "r0006", "r0007", "r0008", "r0009"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after rewind: %v, want %v", got, want)
	}
}

// crash abandons the spool as a killed process would: no checkpoint, no close of segments.
func (s *Spool) crash() {
	s.mu.Lock()
	s.closed = true
	s.lock.Close()
	s.mu.Unlock()
	close(s.stop)
	s.done.Wait()
}

func TestSpoolRefusesASecondProcess(t *testing.T) {
	dir := t.TempDir()
	openSpool(t, dir, testOptions())
	if _, err := Open(dir, testOptions()); err == nil {
		t.Fatal("a second Open of the same directory succeeded")
	}
}

func segmentFiles(t *testing.T, dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*"+segSuffix))
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no segment files")
	}
	return files
}

func TestSpoolSkipsATornLastRecordAfterACrashAndCountsIt(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, testOptions())
	appendN(t, s, "r", 10, ClassKeep)
	s.crash()
	files := segmentFiles(t, dir)
	last := files[len(files)-1]
	fi, _ := os.Stat(last)
	if err := os.Truncate(last, fi.Size()-7); err != nil { // the write of r0009 was cut short
		t.Fatal(err)
	}

	s2 := openSpool(t, dir, testOptions())
	st := s2.Stats()
	if st.Corrupt != 1 || st.Samples != 9 {
		t.Fatalf("stats: %+v (want 1 corrupt, 9 samples)", st)
	}
	appendN(t, s2, "new", 2, ClassKeep)
	got := names(drain(t, s2, true))
	if len(got) != 11 || got[8] != "r0008" || got[9] != "new0000" {
		t.Fatalf("records: %v", got)
	}
}

func TestSpoolSkipsADamagedRecordInTheMiddleAndReadsOn(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, testOptions())
	appendN(t, s, "r", 10, ClassKeep)
	s.crash()
	f := segmentFiles(t, dir)[0]
	raw, _ := os.ReadFile(f)
	size := len(raw) / 10
	raw[3*size+40] ^= 0xff // flip a byte inside r0003's body
	os.WriteFile(f, raw, 0o644)

	s2 := openSpool(t, dir, testOptions())
	if st := s2.Stats(); st.Corrupt != 1 || st.Samples != 9 {
		t.Fatalf("stats: %+v", st)
	}
	got := names(drain(t, s2, true))
	want := []string{"r0000", "r0001", "r0002", "r0004", "r0005", "r0006", "r0007", "r0008", "r0009"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("records: %v", got)
	}
}

// Two rewinds in a row, as when one partition's leader hangs while the others answer: the
// records acknowledged before the first rewind must stay skipped after the second, and each
// sample counts out of the spool once (a second hand-out duplicated them in Kafka and drove the
// spool's depth below zero, found by tests/cluster/test_broker_loss.py).
func TestSpoolSecondRewindStillSkipsWhatWasAcknowledgedBeforeTheFirst(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	appendN(t, s, "r", 20, ClassKeep)
	first, _ := s.Next(20)
	for i, r := range first {
		if i != 5 && i != 7 { // r0005 and r0007 fail: their partition's leader hangs
			s.Ack(r.Seq)
		}
	}
	s.Rewind()
	again, _ := s.Next(20)
	if got := names(again); fmt.Sprint(got) != "[r0005 r0007]" {
		t.Fatalf("after the first rewind: %v, want [r0005 r0007]", got)
	}
	s.Ack(again[0].Seq) // r0005 gets through; r0007 fails again
	s.Rewind()
	third, _ := s.Next(20)
	if got := names(third); fmt.Sprint(got) != "[r0007]" {
		t.Fatalf("after the second rewind: %v, want [r0007]", got)
	}
	s.Ack(third[0].Seq)
	if st := s.Stats(); st.Samples != 0 || st.Acked != 20 {
		t.Fatalf("spool holds %d samples with %d acknowledged; want 0 and 20", st.Samples, st.Acked)
	}
}
