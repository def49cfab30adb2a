package publish

import (
	"fmt"
	"sync"
	"testing"
)

// One fsync makes durable every write before it: the writes a bridge's concurrent results, or
// a batch of the Kafka archiver's, make before they wait.
func TestDurableOneFsyncForEveryEarlierWrite(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	var ws []Written
	for i := 0; i < 5; i++ {
		w, err := s.WriteAll([]Record{rec(ClassKeep, fmt.Sprintf("r%d", i), 10)})
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	if err := s.Durable(ws[len(ws)-1]); err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if err := s.Durable(w); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Stats().Fsyncs; got != 1 {
		t.Fatalf("fsyncs = %d, want 1 for five writes waited for after the last", got)
	}
	if got := names(drain(t, s, true)); fmt.Sprint(got) != "[r0 r1 r2 r3 r4]" {
		t.Fatalf("handed out %v", got)
	}
}

// A write whose segment is sealed (synced and closed) before its writer waits is durable by the
// seal: the wait makes no fsync of its own and reports no error for the closed file.
func TestDurableAfterTheSegmentWasSealed(t *testing.T) {
	opt := testOptions()
	s := openSpool(t, t.TempDir(), opt)
	first, err := s.WriteAll([]Record{rec(ClassKeep, "first", 10)})
	if err != nil {
		t.Fatal(err)
	}
	// a record over the segment's room: the first segment is sealed, a second begun
	second, err := s.WriteAll([]Record{rec(ClassKeep, "second", int(opt.SegmentBytes))})
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Segments != 2 {
		t.Fatalf("segments = %d, want 2", st.Segments)
	}
	if err := s.Durable(first); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().Fsyncs; got != 0 {
		t.Fatalf("fsyncs = %d, want 0: the seal synced the first write", got)
	}
	if err := s.Durable(second); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().Fsyncs; got != 1 {
		t.Fatalf("fsyncs = %d, want 1 for the second write", got)
	}
}

// Waiting after Close: durable, since Close synced; a write never synced is an error, not a
// silent success.
func TestDurableAfterClose(t *testing.T) {
	s, err := Open(t.TempDir(), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.WriteAll([]Record{rec(ClassKeep, "r", 10)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Durable(w); err != nil {
		t.Fatalf("after Close: %v", err)
	}
	if err := s.Durable(w + 1); err == nil {
		t.Fatal("a write the closed spool never made: Durable said nil")
	}
}

// Concurrent writers each told "durable" lose nothing across a reopen (and share fsyncs: the
// log says how many).
func TestAppendAllConcurrentWritersLoseNothing(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions()
	opt.MaxBytes = 8 << 20
	s, err := Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				errs <- s.AppendAll([]Record{rec(ClassKeep, fmt.Sprintf("g%d-%02d", g, i), 200)})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	fsyncs := s.Stats().Fsyncs
	t.Logf("%d appends, %d fsyncs by Durable", writers*each, fsyncs)
	if fsyncs > writers*each {
		t.Fatalf("fsyncs = %d, more than the %d appends", fsyncs, writers*each)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openSpool(t, dir, opt)
	got := map[string]bool{}
	for _, n := range names(drain(t, s, false)) {
		got[n] = true
	}
	if len(got) != writers*each {
		t.Fatalf("%d distinct records after reopening, want %d", len(got), writers*each)
	}
}
