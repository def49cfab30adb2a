// Package backfill imports historical results so that links have baselines on day one: an
// exported perfSONAR archive (JSON lines of archived pScheduler results) or a folder of saved
// tool outputs become samples, published to the raw topics marked with the contract's history
// header. The Flink job learns the throughput baselines from them without judging them, and
// gives them no place in event time (flink-jobs: functions/History), so they are neither dropped
// as late nor make live samples late (`longhaul import`, operator/README.md).
package backfill

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"longhaul/ingest/sample"
	"longhaul/perfsonar/psbridge"
	"longhaul/probes/all"
	"longhaul/probes/probekit"
)

// Item is one record of the input (an archive line, a saved output) as samples, or why not.
type Item struct {
	Where   string // FILE:LINE or FILE: what to look at
	Key     string // the run's key: duplicates share it
	Samples []sample.Sample
	Err     error
}

// MaxRecord bounds one archive line or one saved output: a long iperf3 -J is a few MB.
const MaxRecord = 64 << 20

// Archive reads a perfSONAR archive export: one archived pScheduler result per line (what the
// archivers send). Blank lines are skipped; a line over MaxRecord is an Item with an error.
// progress gets the bytes read so far.
func Archive(name string, r io.Reader, emit func(Item), progress func(int64)) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var read int64
	for line := 1; ; line++ {
		b, tooLong, err := readLine(br, MaxRecord)
		read += int64(len(b))
		if len(bytes.TrimSpace(b)) > 0 || tooLong {
			where := fmt.Sprintf("%s:%d", name, line)
			switch {
			case tooLong:
				emit(Item{Where: where, Err: fmt.Errorf("line longer than %d MB", MaxRecord>>20)})
			default:
				c, cerr := psbridge.Convert(bytes.TrimSpace(b))
				emit(Item{Where: where, Key: c.Key, Samples: c.Samples, Err: cerr})
			}
		}
		if progress != nil {
			progress(read)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
}

// readLine reads one line without its newline; a line longer than max is consumed and reported
// (tooLong) without being kept.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max {
			tooLong = true
		} else {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		return bytes.TrimRight(buf, "\r\n"), false, err
	}
}

// Outputs are saved outputs of one tool for one link: what `longhaul-probe parse` reads.
type Outputs struct {
	Tool     string // an importer of longhaul-probe parse (all.Importers)
	Src, Dst string
	ProbeID  string // the live probe whose baseline they seed (its samples' probe_id)
}

// Files lists the regular files under each path (a file or a folder, walked), sorted.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// Read parses one saved output. Outputs that carry no time of their own (ping, traceroute, iperf
// 2 text) are dated by the file's modification time, when the tool finished writing it.
func (o Outputs) Read(path string) Item {
	parse, ok := all.Importers[o.Tool]
	if !ok {
		return Item{Where: path, Err: fmt.Errorf("no importer for tool %q", o.Tool)}
	}
	f, err := os.Open(path)
	if err != nil {
		return Item{Where: path, Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Item{Where: path, Err: err}
	}
	if st.Size() > MaxRecord {
		return Item{Where: path, Err: fmt.Errorf("larger than %d MB: import one run per file", MaxRecord>>20)}
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return Item{Where: path, Err: err}
	}
	key := probekit.ImportRunID(o.Tool, b)
	m := probekit.Meta{Src: o.Src, Dst: o.Dst, ProbeID: o.ProbeID, RunID: key, Start: st.ModTime()}
	if o.Tool == "pscheduler" {
		m.RunID = ""
		key = ""
	}
	ss, err := parse(b, m)
	if err == nil && key == "" && len(ss) > 0 {
		key, _ = ss[0].Run()
	}
	return Item{Where: path, Key: key, Samples: ss, Err: err}
}
