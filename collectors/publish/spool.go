package publish

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Options of a spool; see config.Spool for the meaning and defaults.
type Options struct {
	MaxBytes      int64
	SegmentBytes  int64
	Fsync         string // "always" | "interval" | "never"
	FsyncInterval time.Duration
	Logger        *slog.Logger
}

// Spool is a bounded on-disk FIFO of records. Append stores records (durably, under the
// "always" fsync policy, before it returns); Next hands them out in order; Ack removes them.
// Records are never lost across a restart: what is not acknowledged is handed out again.
// When the spool is full the oldest interval records are dropped first, then the oldest of
// the rest, never a record handed out and not yet acknowledged; every drop is counted.
type Spool struct {
	mu   sync.Mutex
	dir  string
	opt  Options
	log  *slog.Logger
	segs []*segment // oldest first; the last is the active one when w != nil
	w    *os.File   // writer of the active segment
	// nextSeq is the next sequence number to assign; acked the watermark below which every
	// record is acknowledged, saved its value in the cursor file.
	nextSeq, acked, saved uint64
	bytes                 int64 // on disk, all segments
	pending               int   // records not acknowledged
	pendingBytes          int64 // their encoded size
	dirty                 bool  // written since the last fsync
	// written counts writes; synced is the newest write known on disk (Durable, seal, Close).
	// syncMu lets one caller at a time fsync the active segment outside mu (Durable).
	written, synced uint64
	syncMu          sync.Mutex
	rd              reader
	inflight        []flight        // handed out by Next, ascending
	skip            map[uint64]bool // acknowledged out of order before a Rewind
	notify          chan struct{}
	st              Stats
	closed          bool
	stop            chan struct{}
	done            sync.WaitGroup
	lock            *os.File // flock'ed: one process per spool directory
}

// Stats are the spool's counters.
type Stats struct {
	Samples         int    // records not yet acknowledged
	SampleBytes     int64  // their size on disk
	Bytes           int64  // bytes on disk, acknowledged records not yet removed included
	Segments        int    // segment files
	InFlight        int    // handed out, not yet acknowledged
	Appended        uint64 // records appended since start
	Acked           uint64 // records acknowledged since start
	DroppedInterval uint64 // interval records dropped because the spool was full
	DroppedOther    uint64 // other records dropped because the spool was full
	Refused         uint64 // records AppendAll did not store (full): their sender keeps them
	Corrupt         uint64 // damaged or torn records skipped when loading
	CorruptBytes    int64
	Fsyncs          uint64 // fsyncs Durable made, each for every write before it (group commit)
}

// Dropped is every record dropped.
func (s Stats) Dropped() uint64 { return s.DroppedInterval + s.DroppedOther }

// ErrClosed is returned by a closed spool.
var ErrClosed = errors.New("spool closed")

// Open loads (or creates) the spool in dir: records not acknowledged before the last
// shutdown or crash are handed out again, in order.
func Open(dir string, opt Options) (*Spool, error) {
	if opt.SegmentBytes <= 0 || opt.MaxBytes < 4*opt.SegmentBytes {
		return nil, fmt.Errorf("spool: max bytes (%d) must be at least 4 × segment bytes (%d)", opt.MaxBytes, opt.SegmentBytes)
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	acked, err := readCursor(dir)
	if err != nil {
		lock.Close()
		return nil, err
	}
	s := &Spool{dir: dir, opt: opt, log: opt.Logger, acked: acked, saved: acked, nextSeq: acked,
		skip: map[uint64]bool{}, notify: make(chan struct{}, 1), stop: make(chan struct{}), lock: lock}
	s.rd.nextSeq = acked
	if err := s.load(); err != nil {
		lock.Close()
		return nil, err
	}
	s.done.Add(1)
	go s.maintain()
	return s, nil
}

// lockDir takes an exclusive lock on dir/LOCK, so two agents never share a spool.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("spool %s is in use by another process: %w", dir, err)
	}
	return f, nil
}

// load scans the segments left by a previous run.
func (s *Spool) load() error {
	segs, err := listSegments(s.dir)
	if err != nil {
		return err
	}
	for _, seg := range segs {
		st, err := scan(seg.path, func(r Record, size int) {
			if r.Seq >= s.nextSeq {
				s.nextSeq = r.Seq + 1
			}
			if r.Seq > seg.last {
				seg.last = r.Seq
			}
			if r.Seq >= s.acked {
				s.pendingBytes += int64(size)
				seg.count++
				if r.Class == ClassInterval {
					seg.intervals++
				}
			}
		})
		if err != nil {
			return fmt.Errorf("spool: %s: %w", seg.path, err)
		}
		if st.corrupt > 0 {
			s.st.Corrupt += uint64(st.corrupt)
			s.st.CorruptBytes += st.corruptBytes
			s.log.Warn("spool: skipped damaged records (torn write from a crash, or disk damage)",
				"segment", seg.path, "records", st.corrupt, "bytes", st.corruptBytes)
		}
		if seg.count == 0 {
			if err := os.Remove(seg.path); err != nil {
				return err
			}
			continue
		}
		fi, err := os.Stat(seg.path)
		if err != nil {
			return err
		}
		seg.size = fi.Size()
		s.bytes += seg.size
		s.pending += seg.count
		s.segs = append(s.segs, seg)
	}
	if s.pending > 0 {
		s.log.Info("spool: reloaded records not yet acknowledged", "samples", s.pending, "bytes", s.bytes, "segments", len(s.segs))
	}
	return nil
}

// Notify is signalled after records are appended.
func (s *Spool) Notify() <-chan struct{} { return s.notify }

// Stats returns the counters.
func (s *Spool) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.Samples, st.SampleBytes, st.Bytes = s.pending, s.pendingBytes, s.bytes
	st.Segments, st.InFlight = len(s.segs), s.inFlightLocked()
	return st
}

// maintain checkpoints the acknowledgement watermark every second and applies the
// "interval" fsync policy.
func (s *Spool) maintain() {
	defer s.done.Done()
	every := time.Second
	if s.opt.Fsync == "interval" && s.opt.FsyncInterval > 0 && s.opt.FsyncInterval < every {
		every = s.opt.FsyncInterval
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			if err := s.Checkpoint(); err != nil && !errors.Is(err, ErrClosed) {
				s.log.Error("spool: checkpoint", "err", err)
			}
		}
	}
}

// Checkpoint saves the acknowledgement watermark, deletes segments whose records are all
// acknowledged and, unless the policy is "never", fsyncs what was written since the last sync.
func (s *Spool) Checkpoint() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return s.checkpointLocked()
}

func (s *Spool) checkpointLocked() error {
	if s.dirty && s.w != nil && s.opt.Fsync != "never" {
		if err := s.w.Sync(); err != nil {
			return err
		}
		s.dirty = false
	}
	if s.acked != s.saved {
		if err := writeCursor(s.dir, s.acked); err != nil {
			return err
		}
		s.saved = s.acked
	}
	kept := s.segs[:0]
	for i, seg := range s.segs {
		active := s.w != nil && i == len(s.segs)-1
		if seg.count == 0 && !active {
			if err := os.Remove(seg.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			s.bytes -= seg.size
			continue
		}
		kept = append(kept, seg)
	}
	s.segs = kept
	return nil
}

// Close checkpoints, syncs and closes the spool. Records not acknowledged stay on disk.
func (s *Spool) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	err := s.checkpointLocked()
	if s.w != nil {
		serr := s.w.Sync()
		if serr == nil {
			s.synced = s.written
		} else if err == nil {
			err = serr
		}
		s.w.Close()
		s.w = nil
	}
	s.rd.close()
	s.closed = true
	s.lock.Close()
	s.mu.Unlock()
	close(s.stop)
	s.done.Wait()
	return err
}
