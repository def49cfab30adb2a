package publish

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A segment is one spool file, named after the sequence number it was started at. Only the
// newest segment is appended to; the others are sealed. A sealed segment is rewritten (to a
// temporary file renamed over it) when records are dropped from it, and deleted once every
// record in it is acknowledged.
type segment struct {
	path      string
	base      uint64 // sequence number the file was started at (its name)
	last      uint64 // highest sequence number in the file, 0 if none
	size      int64  // bytes on disk
	count     int    // records in the file not yet acknowledged
	intervals int    // of which ClassInterval
	gen       int    // bumped on every rewrite, so readers reopen
}

const segSuffix = ".seg"

func segName(dir string, base uint64) string {
	return filepath.Join(dir, fmt.Sprintf("%020d%s", base, segSuffix))
}

// listSegments returns the segment files of dir sorted by base, removing leftovers of
// interrupted rewrites.
func listSegments(dir string) ([]*segment, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []*segment
	for _, e := range ents {
		name := e.Name()
		if strings.HasSuffix(name, ".tmp") {
			os.Remove(filepath.Join(dir, name))
			continue
		}
		base, ok := strings.CutSuffix(name, segSuffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(base, 10, 64)
		if err != nil {
			continue
		}
		out = append(out, &segment{path: filepath.Join(dir, name), base: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].base < out[j].base })
	return out, nil
}

// scanStats is what a scan of a segment found.
type scanStats struct {
	corrupt      int   // damaged or torn records skipped
	corruptBytes int64 // bytes they covered
}

// scan calls fn for every intact record of the file, in order, skipping damaged ones: a torn
// record at the end (crash during a write) or a record whose checksum fails in the middle
// (the reader resyncs on the next record magic).
func scan(path string, fn func(r Record, size int)) (scanStats, error) {
	var st scanStats
	f, err := os.Open(path)
	if err != nil {
		return st, err
	}
	defer f.Close()
	rr := newRecordReader(f)
	for {
		rec, size, err := rr.next()
		switch {
		case err == nil:
			fn(rec, size)
		case errors.Is(err, io.EOF):
			return st, nil
		case errors.Is(err, errTorn):
			st.corrupt++
			if fi, err := f.Stat(); err == nil {
				st.corruptBytes += fi.Size() - rr.off
			}
			return st, nil
		case errors.Is(err, errCorrupt):
			st.corrupt++
			n, err := rr.resync()
			st.corruptBytes += n
			if err != nil {
				return st, nil
			}
		default:
			return st, err
		}
	}
}

// rewrite writes the records of seg that keep returns true for to a new file that replaces
// it (fsynced, renamed, directory fsynced). It returns the new size; the caller updates the
// counts through keep. An empty result removes the file.
func rewrite(seg *segment, keep func(r Record) bool) (int64, error) {
	tmp := seg.path + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, err
	}
	var (
		buf  []byte
		size int64
		last uint64
		werr error
	)
	flush := func() {
		if werr == nil && len(buf) > 0 {
			_, werr = out.Write(buf)
			size += int64(len(buf))
			buf = buf[:0]
		}
	}
	_, err = scan(seg.path, func(r Record, _ int) {
		if keep(r) {
			buf = appendEncoded(buf, &r)
			last = r.Seq
			if len(buf) >= 256<<10 {
				flush()
			}
		}
	})
	flush()
	if err == nil {
		err = werr
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	if size == 0 {
		os.Remove(tmp)
		return 0, os.Remove(seg.path)
	}
	if err := os.Rename(tmp, seg.path); err != nil {
		os.Remove(tmp)
		return 0, err
	}
	seg.last = last
	seg.gen++
	return size, syncDir(filepath.Dir(seg.path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
