package publish

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// smallSpool holds about 16 KiB: a record of rec(…, 100) takes 155 bytes on disk.
func smallOptions() Options {
	return Options{MaxBytes: 16 << 10, SegmentBytes: 4 << 10, Fsync: "never", Logger: quiet}
}

func TestFullSpoolDropsTheOldestIntervalRecordsFirst(t *testing.T) {
	s := openSpool(t, t.TempDir(), smallOptions())
	// A run's worth at a time: 9 intervals and a summary, 20 runs ≈ 31 KiB, twice the limit.
	for run := 0; run < 20; run++ {
		var batch []Record
		for i := 0; i < 9; i++ {
			batch = append(batch, rec(ClassInterval, fmt.Sprintf("run%02d-i%d", run, i), 100))
		}
		batch = append(batch, rec(ClassKeep, fmt.Sprintf("run%02d-summary", run), 100))
		if err := s.Append(batch); err != nil {
			t.Fatal(err)
		}
	}
	st := s.Stats()
	if st.Bytes > 16<<10 {
		t.Fatalf("spool holds %d bytes, over its limit", st.Bytes)
	}
	if st.DroppedOther != 0 || st.DroppedInterval == 0 {
		t.Fatalf("drops: %+v (only interval records should have gone)", st)
	}
	kept := drain(t, s, true)
	var keptBytes int64
	for i := range kept {
		keptBytes += int64(encodedSize(&kept[i]))
	}
	if keptBytes != st.SampleBytes {
		t.Fatalf("the kept samples take %d bytes but %d sample bytes are counted", keptBytes, st.SampleBytes)
	}
	got := names(kept)
	if uint64(len(got))+st.DroppedInterval != 200 || len(got) != st.Samples {
		t.Fatalf("kept %d + dropped %d != 200 appended (stats %+v)", len(got), st.DroppedInterval, st)
	}
	summaries, lastInterval := 0, ""
	for i, n := range got {
		if strings.HasSuffix(n, "summary") {
			if want := fmt.Sprintf("run%02d-summary", summaries); n != want {
				t.Fatalf("summary %d is %s, want %s: order lost", summaries, n, want)
			}
			summaries++
		} else {
			if n < lastInterval {
				t.Fatalf("interval %s after %s at %d: order lost", n, lastInterval, i)
			}
			lastInterval = n
		}
	}
	if summaries != 20 {
		t.Fatalf("kept %d of 20 summaries", summaries)
	}
	// The intervals that survived are the newest ones.
	if !strings.HasPrefix(got[len(got)-2], "run19-i8") {
		t.Fatalf("newest interval lost: %v", got[len(got)-3:])
	}
}

func TestFullSpoolDropsTheOldestSummariesOnceNoIntervalIsLeft(t *testing.T) {
	s := openSpool(t, t.TempDir(), smallOptions())
	appendN(t, s, "iv", 10, ClassInterval)
	appendN(t, s, "sum", 200, ClassKeep) // ≈ 31 KiB of summaries alone
	st := s.Stats()
	if st.DroppedInterval != 10 || st.DroppedOther == 0 || st.Bytes > 16<<10 {
		t.Fatalf("stats: %+v (every interval, then the oldest summaries)", st)
	}
	got := names(drain(t, s, true))
	if uint64(len(got))+st.DroppedOther != 200 {
		t.Fatalf("kept %d + dropped %d summaries != 200", len(got), st.DroppedOther)
	}
	if got[len(got)-1] != "sum0199" {
		t.Fatalf("newest summary lost: %s", got[len(got)-1])
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("order lost at %d: %s after %s", i, got[i], got[i-1])
		}
	}
}

func TestFullSpoolNeverDropsRecordsInFlight(t *testing.T) {
	s := openSpool(t, t.TempDir(), smallOptions())
	appendN(t, s, "old", 20, ClassInterval)
	inflight, _ := s.Next(20) // handed to Kafka, no answer yet
	appendN(t, s, "new", 200, ClassInterval)
	st := s.Stats()
	if st.InFlight != 20 || st.Dropped() == 0 {
		t.Fatalf("stats: %+v", st)
	}
	for _, r := range inflight {
		s.Ack(r.Seq)
	}
	rest := names(drain(t, s, true))
	if uint64(len(rest))+st.Dropped() != 200 {
		t.Fatalf("20 in flight + %d kept + %d dropped != 220", len(rest), st.Dropped())
	}
	// A rewind after a failure hands the in-flight records out again: they were kept.
	s2 := openSpool(t, t.TempDir(), smallOptions())
	appendN(t, s2, "old", 20, ClassInterval)
	s2.Next(20)
	appendN(t, s2, "new", 200, ClassInterval)
	s2.Rewind()
	again := names(drain(t, s2, true))
	if again[0] != "old0000" || again[19] != "old0019" {
		t.Fatalf("in-flight records lost by the drop policy: %v", again[:20])
	}
}

func TestFullSpoolReloadsAsItWasLeft(t *testing.T) {
	dir := t.TempDir()
	s := openSpool(t, dir, smallOptions())
	appendN(t, s, "iv", 300, ClassInterval)
	before := s.Stats()
	if before.Dropped() == 0 {
		t.Fatal("nothing dropped")
	}
	s.Close()
	s2 := openSpool(t, dir, smallOptions())
	after := s2.Stats()
	if after.Samples != before.Samples || after.Bytes != before.Bytes {
		t.Fatalf("reload changed the spool: before %+v after %+v", before, after)
	}
}

func TestAppendAllStoresEveryRecordOrNone(t *testing.T) {
	s := openSpool(t, t.TempDir(), smallOptions())
	// 16 KiB of summaries (155 bytes each) and some interval rows among them
	for i := 0; i < 100; i++ {
		class := ClassKeep
		if i%4 == 0 {
			class = ClassInterval
		}
		if err := s.Append([]Record{rec(class, fmt.Sprintf("r%03d", i), 100)}); err != nil {
			t.Fatal(err)
		}
	}
	before := s.Stats()
	// a result that fits once the interval rows are gone: stored whole, no summary dropped
	var fits []Record
	for i := 0; i < 10; i++ {
		fits = append(fits, rec(ClassKeep, fmt.Sprintf("fits-%d", i), 100))
	}
	if err := s.AppendAll(fits); err != nil {
		t.Fatalf("a result that fits after dropping interval rows: %v", err)
	}
	st := s.Stats()
	if st.DroppedOther != before.DroppedOther || st.Appended != before.Appended+10 {
		t.Fatalf("before %+v, after %+v: summaries dropped or the result not stored whole", before, st)
	}
	// one that only fits by dropping other samples: refused whole, nothing else changes
	var big []Record
	for i := 0; i < 60; i++ {
		big = append(big, rec(ClassKeep, fmt.Sprintf("big-%d", i), 100))
	}
	err := s.AppendAll(big)
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "60 records") {
		t.Fatalf("a result that does not fit: %v", err)
	}
	after := s.Stats()
	if after.Appended != st.Appended || after.Samples != st.Samples || after.DroppedOther != st.DroppedOther || after.Refused != 60 {
		t.Fatalf("refused, yet the spool changed: %+v → %+v", st, after)
	}
}
