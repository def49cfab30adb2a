package publish

import (
	"errors"
	"fmt"
	"os"
)

// ErrFull says AppendAll stored nothing: the records do not fit, even with every droppable
// interval row dropped.
var ErrFull = errors.New("spool: full")

// Append stores records in order, assigning their sequence numbers. Under the "always"
// fsync policy they are on disk when it returns. If the spool is full, room is made by the
// drop policy (spool_drop.go); an error means the records could not be stored at all.
func (s *Spool) Append(recs []Record) error { return s.wait(s.write(recs, false)) }

// AppendAll stores every one of recs or none (ErrFull): room is made only by dropping older
// interval rows, never other samples, and none of recs is dropped. What someone else holds
// until the spool says yes (a pScheduler archiver's result) is not taken at the cost of what
// the spool already took.
func (s *Spool) AppendAll(recs []Record) error { return s.wait(s.write(recs, true)) }

// Written is what WriteAll wrote: Durable waits until it is on disk.
type Written uint64

// WriteAll stores recs as AppendAll does but returns before the fsync: Durable(w) waits for it.
// Its records may be handed out (Next) before they are durable. Callers that write and then
// wait outside their own lock share fsyncs: one fsync makes durable everything written before
// it began, whoever wrote it (group commit: a bridge's concurrent results, a batch of the
// Kafka archiver's).
func (s *Spool) WriteAll(recs []Record) (Written, error) { return s.write(recs, true) }

func (s *Spool) wait(w Written, err error) error {
	if err != nil {
		return err
	}
	return s.Durable(w)
}

// Durable returns once what was written up to w is on disk under the "always" policy (at once
// under the others), or the error of the fsync that should have made it so. One caller at a time
// fsyncs, outside the spool's lock, so appends and Next go on meanwhile; the callers that wait
// behind it find their writes made durable by its fsync or the next one.
func (s *Spool) Durable(w Written) error {
	if w == 0 || s.opt.Fsync != "always" {
		return nil
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	s.mu.Lock()
	if s.synced >= uint64(w) {
		s.mu.Unlock()
		return nil
	}
	f, upto, path := s.w, s.written, ""
	if f != nil {
		path = s.segs[len(s.segs)-1].path
	}
	s.mu.Unlock()
	var err error
	if f == nil {
		err = ErrClosed
	} else {
		err = f.Sync()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.st.Fsyncs++
		s.synced = max(s.synced, upto)
	}
	if s.synced >= uint64(w) {
		return nil // by this fsync, or by sealing the segment while it ran (which closed f)
	}
	return fmt.Errorf("spool: fsync %s: %w", path, err)
}

// write stores recs without the "always" policy's fsync, whose turn it returns: Durable's.
func (s *Spool) write(recs []Record, all bool) (Written, error) {
	if len(recs) == 0 {
		return 0, nil
	}
	for i := range recs {
		if err := validRecord(&recs[i]); err != nil {
			return 0, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	size := int64(0)
	for i := range recs {
		size += int64(encodedSize(&recs[i]))
	}
	if s.bytes+size > s.opt.MaxBytes {
		// Free down to 7/8 of the limit so a full spool is not rewritten on every append.
		need := s.bytes + size - s.opt.MaxBytes + s.opt.MaxBytes/8
		if all {
			s.makeRoomUpTo(need, ClassInterval)
			if s.bytes+size > s.opt.MaxBytes {
				s.st.Refused += uint64(len(recs))
				return 0, fmt.Errorf("%w: %d records (%d bytes) do not fit in the %d bytes left", ErrFull, len(recs), size, s.opt.MaxBytes-s.bytes)
			}
		} else {
			s.makeRoom(need)
		}
		if s.bytes+size > s.opt.MaxBytes {
			recs, size = s.dropIncoming(recs, s.opt.MaxBytes-s.bytes)
			if len(recs) == 0 {
				return 0, nil
			}
		}
	}
	if s.w == nil || s.segs[len(s.segs)-1].size+size > s.opt.SegmentBytes {
		if err := s.rotate(); err != nil {
			return 0, err
		}
	}
	seg := s.segs[len(s.segs)-1]
	buf := make([]byte, 0, size)
	for i := range recs {
		recs[i].Seq = s.nextSeq
		s.nextSeq++
		buf = appendEncoded(buf, &recs[i])
	}
	if _, err := s.w.Write(buf); err != nil {
		// Leave no torn record behind; the sequence numbers are simply not used.
		s.w.Truncate(seg.size)
		return 0, fmt.Errorf("spool: write %s: %w", seg.path, err)
	}
	s.written++
	if s.opt.Fsync != "always" {
		s.dirty = true
	}
	seg.size += size
	seg.last = recs[len(recs)-1].Seq
	for i := range recs {
		seg.count++
		if recs[i].Class == ClassInterval {
			seg.intervals++
		}
	}
	s.bytes += size
	s.pending += len(recs)
	s.pendingBytes += size
	s.st.Appended += uint64(len(recs))
	select {
	case s.notify <- struct{}{}:
	default:
	}
	return Written(s.written), nil
}

// rotate seals the active segment and starts a new one at the next sequence number.
func (s *Spool) rotate() error {
	if err := s.seal(); err != nil {
		return err
	}
	seg := &segment{path: segName(s.dir, s.nextSeq), base: s.nextSeq}
	f, err := os.OpenFile(seg.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	if s.opt.Fsync == "always" {
		if err := syncDir(s.dir); err != nil {
			f.Close()
			return err
		}
	}
	s.w = f
	s.segs = append(s.segs, seg)
	return nil
}

// seal closes the active segment, which from then on may be rewritten or deleted.
func (s *Spool) seal() error {
	if s.w == nil {
		return nil
	}
	err := s.w.Sync()
	if err == nil {
		s.synced = s.written // every earlier segment was sealed so, or failed to be
	}
	if cerr := s.w.Close(); err == nil {
		err = cerr
	}
	s.w, s.dirty = nil, false
	last := s.segs[len(s.segs)-1]
	if last.count == 0 && last.size == 0 {
		os.Remove(last.path)
		s.segs = s.segs[:len(s.segs)-1]
	}
	return err
}
