package publish

import (
	"errors"
	"io"
	"os"
	"sort"
)

// reader is the spool's read position: the next sequence number to hand out and the open
// segment it is read from.
type reader struct {
	nextSeq uint64
	base    uint64 // segment being read
	gen     int
	f       *os.File
	rr      *recordReader
}

func (r *reader) close() {
	if r.f != nil {
		r.f.Close()
		r.f, r.rr = nil, nil
	}
}

// flight is a record handed out by Next and not yet acknowledged (or acknowledged out of
// order, waiting for the ones before it).
type flight struct {
	seq   uint64
	size  int32
	class Class
	acked bool
}

// Next hands out up to max records not handed out yet, oldest first. They stay in the spool
// until acknowledged.
func (s *Spool) Next(max int) ([]Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	var out []Record
	for len(out) < max {
		seg := s.segmentFor(s.rd.nextSeq)
		if seg == nil {
			break
		}
		if s.rd.f == nil || s.rd.base != seg.base || s.rd.gen != seg.gen {
			s.rd.close()
			f, err := os.Open(seg.path)
			if err != nil {
				return out, err
			}
			s.rd.f, s.rd.rr, s.rd.base, s.rd.gen = f, newRecordReader(f), seg.base, seg.gen
		}
		rec, size, err := s.rd.rr.next()
		switch {
		case err == nil:
			if rec.Seq < s.rd.nextSeq {
				continue
			}
			s.rd.nextSeq = rec.Seq + 1
			// an acknowledged record after a rewind's first unacknowledged one: skipped on every
			// hand-out until the watermark passes it (Ack), so a second rewind skips it too
			if rec.Seq < s.acked || s.skip[rec.Seq] {
				continue
			}
			s.inflight = append(s.inflight, flight{seq: rec.Seq, size: int32(size), class: rec.Class})
			out = append(out, rec)
		case errors.Is(err, errCorrupt):
			if _, err := s.rd.rr.resync(); err != nil {
				s.endOfSegment(seg)
			}
		case errors.Is(err, io.EOF), errors.Is(err, errTorn):
			if s.isActive(seg) {
				return out, nil // caught up with the writer
			}
			s.endOfSegment(seg)
		default:
			return out, err
		}
	}
	return out, nil
}

// endOfSegment moves the reader past a sealed segment.
func (s *Spool) endOfSegment(seg *segment) {
	if seg.last+1 > s.rd.nextSeq {
		s.rd.nextSeq = seg.last + 1
	}
	if seg.base+1 > s.rd.nextSeq { // an emptied segment
		s.rd.nextSeq = seg.base + 1
	}
	s.rd.close()
}

// segmentFor returns the first segment that may hold seq or a later record, or nil.
func (s *Spool) segmentFor(seq uint64) *segment {
	for i, seg := range s.segs {
		if seg.last >= seq || (i == len(s.segs)-1 && s.isActive(seg)) {
			return seg
		}
	}
	return nil
}

func (s *Spool) isActive(seg *segment) bool {
	return s.w != nil && len(s.segs) > 0 && s.segs[len(s.segs)-1] == seg
}

// Ack removes a record handed out by Next: Kafka has it.
func (s *Spool) Ack(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.Search(len(s.inflight), func(i int) bool { return s.inflight[i].seq >= seq })
	if i == len(s.inflight) || s.inflight[i].seq != seq || s.inflight[i].acked {
		return // not in flight: acknowledged twice, or from before a Rewind
	}
	s.inflight[i].acked = true
	s.pending--
	s.pendingBytes -= int64(s.inflight[i].size)
	s.st.Acked++
	if seg := s.segmentOf(seq); seg != nil {
		seg.count--
		if s.inflight[i].class == ClassInterval {
			seg.intervals--
		}
	}
	n := 0
	for n < len(s.inflight) && s.inflight[n].acked {
		n++
	}
	s.inflight = s.inflight[n:]
	if len(s.inflight) > 0 {
		s.acked = s.inflight[0].seq
	} else {
		s.acked = s.rd.nextSeq
	}
	if n > 0 {
		for q := range s.skip { // at most one in-flight window of them, and only after a rewind
			if q < s.acked {
				delete(s.skip, q)
			}
		}
	}
}

// segmentOf returns the segment holding seq (the last one started at or before it).
func (s *Spool) segmentOf(seq uint64) *segment {
	i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].base > seq })
	if i == 0 {
		return nil
	}
	return s.segs[i-1]
}

// Rewind makes every record handed out and not acknowledged available to Next again, in
// order. Call it only when no acknowledgement is outstanding any more (after a failed send
// has settled), so the same record is not in flight twice.
func (s *Spool) Rewind() {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := -1
	for i, f := range s.inflight {
		if !f.acked {
			if first < 0 {
				first = i
			}
		} else if first >= 0 {
			s.skip[f.seq] = true
		}
	}
	if first < 0 {
		return
	}
	s.rd.nextSeq = s.inflight[first].seq
	s.inflight = s.inflight[:0]
	s.rd.close()
}

func (s *Spool) inFlightLocked() int {
	n := 0
	for _, f := range s.inflight {
		if !f.acked {
			n++
		}
	}
	return n
}
