package publish

import (
	"log/slog"
	"sort"
)

// The drop policy, applied when an Append would take the spool past max bytes:
//
//  1. the oldest interval records (per-interval throughput rows) are dropped, segment by
//     segment, oldest first;
//  2. if that is not enough, the oldest records of any class (summaries, paths, RTTs, host
//     snapshots) are dropped;
//  3. if even that is not enough (everything left is in flight), the incoming records are
//     dropped, interval records first.
//
// Records handed out by Next and not yet acknowledged are never dropped: they are on their
// way to Kafka. Dropping keeps the order of what remains. Every drop is counted by class and
// logged.

// makeRoom frees at least need bytes if it can.
func (s *Spool) makeRoom(need int64) { s.makeRoomUpTo(need, ClassKeep) }

// makeRoomUpTo frees at least need bytes if it can, dropping records of class upTo or lower.
func (s *Spool) makeRoomUpTo(need int64, upTo Class) {
	before := s.st
	freed := s.dropPass(need, ClassInterval)
	if freed < need && s.w != nil {
		if err := s.seal(); err != nil {
			s.log.Error("spool: sealing segment to make room", "err", err)
		}
		freed += s.dropPass(need-freed, ClassInterval)
	}
	if freed < need && upTo >= ClassKeep {
		freed += s.dropPass(need-freed, ClassKeep)
	}
	s.logDrops(before, "spool full: dropped the oldest samples", slog.Int64("freed_bytes", freed))
}

// dropPass rewrites sealed segments, oldest first, dropping unsent records of class upTo or
// lower until need bytes are freed. It returns the bytes freed.
func (s *Spool) dropPass(need int64, upTo Class) int64 {
	var freed int64
	kept := s.segs[:0]
	for i, seg := range s.segs {
		active := s.w != nil && i == len(s.segs)-1
		droppable := seg.last >= s.rd.nextSeq && (upTo == ClassKeep || seg.intervals > 0)
		if freed >= need || active || !droppable {
			kept = append(kept, seg)
			continue
		}
		var dropped int64
		newSize, err := rewrite(seg, func(r Record) bool {
			switch {
			case r.Seq < s.acked || s.skip[r.Seq] || s.ackedInFlight(r.Seq):
				delete(s.skip, r.Seq)
				return false // acknowledged: removed without counting
			case r.Seq < s.rd.nextSeq:
				return true // in flight
			case r.Class <= upTo && freed+dropped < need:
				dropped += int64(encodedSize(&r))
				s.countDrop(seg, r.Class, encodedSize(&r))
				return false
			}
			return true
		})
		if err != nil {
			s.log.Error("spool: rewriting segment to drop records", "segment", seg.path, "err", err)
			kept = append(kept, seg)
			continue
		}
		freed += seg.size - newSize
		s.bytes -= seg.size - newSize
		seg.size = newSize
		if newSize > 0 {
			kept = append(kept, seg)
		}
	}
	s.segs = kept
	return freed
}

func (s *Spool) countDrop(seg *segment, c Class, size int) {
	seg.count--
	s.pending--
	s.pendingBytes -= int64(size)
	if c == ClassInterval {
		seg.intervals--
		s.st.DroppedInterval++
	} else {
		s.st.DroppedOther++
	}
}

func (s *Spool) ackedInFlight(seq uint64) bool {
	i := sort.Search(len(s.inflight), func(i int) bool { return s.inflight[i].seq >= seq })
	return i < len(s.inflight) && s.inflight[i].seq == seq && s.inflight[i].acked
}

// dropIncoming keeps what fits of an incoming batch in room bytes, dropping its interval
// records first, then its oldest.
func (s *Spool) dropIncoming(recs []Record, room int64) ([]Record, int64) {
	before := s.st
	var size int64
	for i := range recs {
		size += int64(encodedSize(&recs[i]))
	}
	keep := make([]bool, len(recs))
	for i := range keep {
		keep[i] = true
	}
	for _, c := range []Class{ClassInterval, ClassKeep} {
		for i := range recs {
			if size <= room {
				break
			}
			if keep[i] && recs[i].Class <= c {
				keep[i] = false
				size -= int64(encodedSize(&recs[i]))
				if recs[i].Class == ClassInterval {
					s.st.DroppedInterval++
				} else {
					s.st.DroppedOther++
				}
			}
		}
	}
	out := recs[:0]
	for i := range recs {
		if keep[i] {
			out = append(out, recs[i])
		}
	}
	s.logDrops(before, "spool full of records in flight: dropped incoming samples")
	return out, size
}

func (s *Spool) logDrops(before Stats, msg string, attrs ...any) {
	di, do := s.st.DroppedInterval-before.DroppedInterval, s.st.DroppedOther-before.DroppedOther
	if di+do == 0 {
		return
	}
	args := append([]any{"interval", di, "other", do, "dropped_total", s.st.Dropped()}, attrs...)
	s.log.Warn(msg, args...)
}
