package psbridge

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Seen remembers the keys of the results already converted, the newest capacity of them, in
// memory and in an append-only file that survives restarts (one hex digest a line; compacted
// when it holds twice what is kept). A key is kept as 16 bytes of its SHA-256, so a million
// keys take about 50 MB whatever their length.
//
// The file is not synced on every add: after a crash the last few keys may be forgotten and a
// retried result converted again. Its samples are then byte for byte those sent before, which
// the Flink job drops as a replay (DropReplayed).
type Seen struct {
	mu       sync.Mutex
	path     string
	capacity int
	ids      map[digest]struct{}
	order    []digest // a ring, oldest at head once full
	head     int
	f        *os.File
	w        *bufio.Writer
	lines    int // lines in the file
}

type digest [16]byte

func digestOf(key string) digest {
	h := sha256.Sum256([]byte(key))
	var d digest
	copy(d[:], h[:])
	return d
}

// OpenSeen loads path (missing: empty) and keeps it open for appends. A torn or damaged line
// (a crash mid-write) is skipped.
func OpenSeen(path string, capacity int) (*Seen, error) {
	if capacity < 1 {
		return nil, fmt.Errorf("seen: capacity must be positive, got %d", capacity)
	}
	s := &Seen{path: path, capacity: capacity, ids: make(map[digest]struct{}), order: make([]digest, 0, min(capacity, 1<<16))}
	if err := s.load(); err != nil {
		return nil, err
	}
	if s.lines > len(s.order) {
		if err := s.compact(); err != nil {
			return nil, err
		}
	}
	return s, s.openAppend()
}

func (s *Seen) load() error {
	f, err := os.Open(s.path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("seen: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64), 64)
	for sc.Scan() {
		s.lines++
		d, err := parseDigest(sc.Bytes())
		if err != nil {
			continue
		}
		s.remember(d)
	}
	if err := sc.Err(); err != nil && err != bufio.ErrTooLong {
		return fmt.Errorf("seen: %s: %w", s.path, err)
	}
	return nil
}

// remember adds d to memory, forgetting the oldest beyond capacity.
func (s *Seen) remember(d digest) {
	if _, ok := s.ids[d]; ok {
		return
	}
	if len(s.order) < s.capacity {
		s.order = append(s.order, d)
	} else {
		delete(s.ids, s.order[s.head])
		s.order[s.head] = d
		s.head = (s.head + 1) % s.capacity
	}
	s.ids[d] = struct{}{}
}

// Has says whether key was added (and is still among the newest capacity).
func (s *Seen) Has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.ids[digestOf(key)]
	return ok
}

// Add remembers key, in memory and in the file.
func (s *Seen) Add(key string) error {
	_, err := s.add(digestOf(key))
	return err
}

// Digest is key as Seen keeps it, in hex: what the bridges of a fleet share (share.go).
func Digest(key string) string {
	d := digestOf(key)
	return hex.EncodeToString(d[:])
}

// AddDigest remembers a key by its Digest (another bridge's): whether it was new.
func (s *Seen) AddDigest(h string) (bool, error) {
	d, err := parseDigest([]byte(h))
	if err != nil {
		return false, fmt.Errorf("seen: %.40q is not a key's digest: %w", h, err)
	}
	return s.add(d)
}

// parseDigest reads a digest's hex form (a line of the file, a shared key's).
func parseDigest(h []byte) (digest, error) {
	var d digest
	if len(h) != 2*len(d) {
		return d, fmt.Errorf("%d characters, not %d hex digits", len(h), 2*len(d)) // hex.Decode would write past d
	}
	_, err := hex.Decode(d[:], h)
	return d, err
}

func (s *Seen) add(d digest) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ids[d]; ok {
		return false, nil
	}
	s.remember(d)
	var line [2*len(digest{}) + 1]byte
	hex.Encode(line[:], d[:])
	line[len(line)-1] = '\n'
	if _, err := s.w.Write(line[:]); err != nil {
		return true, fmt.Errorf("seen: %w", err)
	}
	if err := s.w.Flush(); err != nil {
		return true, fmt.Errorf("seen: %w", err)
	}
	s.lines++
	if s.lines >= 2*s.capacity {
		if err := s.f.Close(); err != nil {
			return true, fmt.Errorf("seen: %w", err)
		}
		if err := s.compact(); err != nil {
			return true, err
		}
		return true, s.openAppend()
	}
	return true, nil
}

// Len is how many keys are kept.
func (s *Seen) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.order)
}

// compact rewrites the file with what is kept, oldest first, atomically.
func (s *Seen) compact() error {
	tmp := s.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("seen: %w", err)
	}
	w := bufio.NewWriter(f)
	n := len(s.order)
	for i := 0; i < n; i++ {
		d := s.order[(s.head+i)%n]
		fmt.Fprintf(w, "%x\n", d[:])
	}
	err = w.Flush()
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, s.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("seen: compacting %s: %w", s.path, err)
	}
	s.lines = n
	return nil
}

func (s *Seen) openAppend() error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("seen: %w", err)
	}
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("seen: %w", err)
	}
	s.f, s.w = f, bufio.NewWriter(f)
	return nil
}

// Close flushes and closes the file.
func (s *Seen) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f = nil
	return err
}
