package publish

import (
	"testing"
)

// A throughput interval sample is about 600 bytes of JSON.
func benchRecord() Record {
	return rec(ClassInterval, "bench", 540)
}

func benchmarkAppend(b *testing.B, fsync string, batch int) {
	opt := Options{MaxBytes: 1 << 30, SegmentBytes: 8 << 20, Fsync: fsync, Logger: quiet}
	s, err := Open(b.TempDir(), opt)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	recs := make([]Record, batch)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range recs {
			recs[j] = benchRecord()
		}
		if err := s.Append(recs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "samples/s")
}

// One fsync per run's batch of 31 samples (30 intervals + summary), the default policy.
func BenchmarkSpoolAppendFsyncAlwaysBatch31(b *testing.B) { benchmarkAppend(b, "always", 31) }
func BenchmarkSpoolAppendFsyncAlways1(b *testing.B)       { benchmarkAppend(b, "always", 1) }
func BenchmarkSpoolAppendFsyncNever1(b *testing.B)        { benchmarkAppend(b, "never", 1) }

// 16 writers of one record each at a time, as a bridge's concurrent results: each told durable,
// sharing fsyncs (Durable). Against BenchmarkSpoolAppendFsyncAlways1, one writer.
func BenchmarkSpoolAppendFsyncAlways1Concurrent16(b *testing.B) {
	opt := Options{MaxBytes: 1 << 30, SegmentBytes: 8 << 20, Fsync: "always", Logger: quiet}
	s, err := Open(b.TempDir(), opt)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.SetParallelism(8) // × GOMAXPROCS (2 here)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := s.AppendAll([]Record{benchRecord()}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
	b.ReportMetric(float64(b.N)/float64(max(s.Stats().Fsyncs, 1)), "records/fsync")
}

// Drain: Next + Ack of spooled records, the publisher's side without Kafka. Records are
// appended (untimed) 10 000 at a time so the spool stays under its limit.
func BenchmarkSpoolDrain(b *testing.B) {
	opt := Options{MaxBytes: 1 << 30, SegmentBytes: 8 << 20, Fsync: "never", Logger: quiet}
	s, err := Open(b.TempDir(), opt)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	batch := make([]Record, 10000)
	b.ResetTimer()
	for got := 0; got < b.N; {
		b.StopTimer()
		for j := range batch {
			batch[j] = benchRecord()
		}
		if err := s.Append(batch); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for left := len(batch); left > 0; {
			recs, err := s.Next(1000)
			if err != nil || len(recs) == 0 {
				b.Fatalf("next: %d records, %v", len(recs), err)
			}
			for _, r := range recs {
				s.Ack(r.Seq)
			}
			left -= len(recs)
			got += len(recs)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}
