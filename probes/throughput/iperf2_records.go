package throughput

import (
	"errors"
	"fmt"
	"sort"
	"strconv"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// i2Dir is one direction of the run: its streams' rows and whether this output's side sent
// them (nil: the output does not say, as -y C of TCP).
type i2Dir struct {
	name   string // forward (the client sends) or reverse
	sends  *bool
	keys   map[string]bool
	suffix string // of the run id in a dual test
}

// clientSide tells a client's output from a server's: by the first connection in a dual test
// (the client prints its listener first), else by its header; -y C rows: see csvSides.
func (run *i2Run) clientSide() bool {
	if run.client != nil && run.server != nil && run.first != nil {
		return !run.accepted(run.first)
	}
	return run.server == nil
}

// accepted: the stream came in on this side's listening port.
func (run *i2Run) accepted(c *i2Conn) bool {
	return run.server != nil && run.server.port != nil && c.localPort == *run.server.port
}

// sends says whether this side sent the stream's data. In a dual test by the connection (who
// connected sends); otherwise the client sends unless the stream runs reversed (2.1's -R:
// "(reverse)" on the connection line, rows tagged [ *N]).
func (run *i2Run) sends(key string, client bool) bool {
	c := run.conns[key]
	if run.client != nil && run.server != nil && c != nil {
		return !run.accepted(c)
	}
	reversed := run.starred[key] || c != nil && c.reverse
	return client != reversed
}

// directions groups the streams by direction. [SUM] rows add up the streams of a -P test; in
// a dual test they add up both directions and are left out.
func (run *i2Run) directions() []*i2Dir {
	dual := run.client != nil && run.server != nil
	client := run.clientSide()
	var csvSends *bool
	if run.csv {
		csvSends = run.csvSides()
	}
	dirs := map[string]*i2Dir{}
	var order []*i2Dir
	add := func(key string, sends *bool) {
		name := "forward" // -y C does not show a reversed run
		if sends != nil && *sends != client && !run.csv {
			name = "reverse"
		}
		d := dirs[name]
		if d == nil {
			d = &i2Dir{name: name, sends: sends, keys: map[string]bool{}}
			if dual {
				d.suffix = "-" + name
			}
			dirs[name] = d
			order = append(order, d)
		}
		d.keys[key] = true
	}
	for _, row := range run.rows {
		switch {
		case run.csv:
			add(row.key, csvSends)
		case row.key == "SUM" && dual:
		case row.key == "SUM":
			s := client != run.starredAny()
			add(row.key, &s)
		default:
			s := run.sends(row.key, client)
			add(row.key, &s)
		}
	}
	if len(order) == 0 { // no rows: the failure alone
		add("", &client)
	}
	return order
}

func (run *i2Run) starredAny() bool {
	for k := range run.starred {
		if k != "SUM" {
			return true
		}
	}
	for _, c := range run.conns {
		if c.reverse {
			return true
		}
	}
	return false
}

// csvSides: -y C rows do not say whose they are. A UDP client's final row has a total of -1
// (it knows no loss) and its interval rows zeros: its rows are what it sent, without loss
// figures. Other UDP rows are a server's, what it received. For TCP it cannot be told: the
// summary carries bytes and bits_per_second alone.
func (run *i2Run) csvSides() *bool {
	if run.protocol == "" {
		run.protocol = "tcp"
		for _, r := range run.rows {
			if r.jitter != nil || r.total != nil {
				run.protocol = "udp"
			}
		}
	}
	if run.protocol != "udp" {
		return nil
	}
	for _, r := range run.rows {
		if r.start == 0 && r.total == nil && r.jitter != nil { // a final row, total -1
			for _, x := range run.rows {
				x.jitter, x.lost, x.total, x.lossPct = nil, nil, nil, nil
			}
			return boolp(true)
		}
	}
	return boolp(false)
}

func boolp(v bool) *bool { return &v }

// records turns the rows of the run into interval records and a summary per direction, handed
// to emit once every row has been checked.
func (run *i2Run) records(m probekit.Meta, startMS int64, emit func(sample.Sample) error) error {
	if len(run.rows) == 0 && run.failure == nil {
		return &probekit.LineError{Line: max(1, run.lastLine), Msg: "no iperf 2 throughput rows and no error: nothing to import"}
	}
	dirs := run.directions()
	finals := 0
	type part struct {
		d         *i2Dir
		key       string
		intervals []*i2Row
		final     *i2Row
	}
	var parts []part
	for _, d := range dirs {
		key, err := run.key(d)
		if err != nil {
			return err
		}
		intervals, final, err := run.split(key)
		if err != nil {
			return err
		}
		if final == nil && run.failure == nil {
			return &probekit.LineError{Line: intervals[len(intervals)-1].no, Msg: "the run has no final row (0.0-N sec): the output is incomplete"}
		}
		if final != nil {
			finals++
		}
		for _, row := range intervals {
			if _, err := probekit.OffsetMS(startMS, row.end); err != nil {
				return run.errorAt(row.no, "%v", err)
			}
		}
		parts = append(parts, part{d, key, intervals, final})
	}
	for _, p := range parts {
		r := run.info(m, p.d)
		for _, row := range p.intervals {
			ts, _ := probekit.OffsetMS(startMS, row.end) // checked above
			rec := r.record(sample.RecordInterval, ts)
			rec.StartS, rec.EndS = sample.F64(row.start), sample.F64(row.end)
			rec.Bytes, rec.BitsPerSecond = sample.I64(row.bytes), sample.F64(row.bps)
			rowLoss(rec, row)
			rowTCP(rec, row)
			rec.OutOfOrder = row.outOfOrder
			if err := emit(rec); err != nil {
				return err
			}
		}
		// In a dual test a failure is the direction's that did not finish (both when both did).
		failure := run.failure
		if failure != nil && p.final != nil && finals < len(parts) {
			failure = nil
		}
		if err := emit(run.summary(r, p.d, p.key, p.final, failure, startMS)); err != nil {
			return err
		}
	}
	return nil
}

func (run *i2Run) info(m probekit.Meta, d *i2Dir) *runInfo {
	client := run.clientSide()
	r := &runInfo{meta: m, tool: "iperf2", protocol: run.protocol, window: run.window, direction: d.name}
	switch {
	case run.csv:
		r.target = sample.Str(probekit.Snippet(run.csvDst[0]))
		if p, err := strconv.Atoi(run.csvDst[1]); err == nil && p >= 1 && p <= 65535 {
			r.port = sample.I64(int64(p))
		}
	case client && run.client != nil:
		r.target, r.port = sample.Str(run.client.target), run.client.port
	case !client && run.server != nil:
		r.port = run.server.port
	}
	if d.suffix != "" {
		id := r.meta.RunID
		if len(id)+len(d.suffix) > 200 {
			id = id[:200-len(d.suffix)]
		}
		r.meta.RunID = id + d.suffix
	}
	n := len(run.conns) // every stream has its connection line
	if n == 0 || d.suffix != "" {
		n = run.rowStreams(d)
	}
	if n > 0 {
		r.streams = sample.I64(int64(n))
	}
	r.fromRequested(Requested{})
	return r
}

// rowStreams counts the streams of d that have rows of their own (all streams in a test
// with one direction).
func (run *i2Run) rowStreams(d *i2Dir) int {
	seen := map[string]bool{}
	for _, row := range run.rows {
		if row.key != "SUM" && (d.suffix == "" || d.keys[row.key]) {
			seen[row.key] = true
		}
	}
	return len(seen)
}

// key picks whose rows make the direction's records: [SUM] when iperf printed it, else the
// one stream.
func (run *i2Run) key(d *i2Dir) (string, error) {
	if d.keys["SUM"] {
		return "SUM", nil
	}
	if len(d.keys) > 1 {
		var ks []string
		for k := range d.keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		line := 1
		for _, row := range run.rows {
			if row.key == ks[0] || row.key == ks[1] {
				line = row.no
				break
			}
		}
		return "", &probekit.LineError{Line: line, Msg: "several streams (" + probekit.Snippet(ks[0]) + ", " + probekit.Snippet(ks[1]) + ", …) and no [SUM] rows: several runs in one file?"}
	}
	for k := range d.keys {
		return k, nil
	}
	return "", nil
}

// split separates the intervals from the final row, the one starting at 0.0 again (or the
// only row when iperf ran without -i).
func (run *i2Run) split(key string) ([]*i2Row, *i2Row, error) {
	var intervals []*i2Row
	var final *i2Row
	for _, row := range run.rows {
		if row.key != key {
			continue
		}
		first := len(intervals) == 0 && final == nil
		switch {
		case final != nil:
			return nil, nil, run.errorAt(row.no, "a row after the run's final row (%g-%g sec)", final.start, final.end)
		case row.start == 0 && !first:
			final = row
		default:
			intervals = append(intervals, row)
		}
	}
	if final == nil && len(intervals) == 1 && intervals[0].start == 0 {
		return nil, intervals[0], nil
	}
	return intervals, final, nil
}

func (run *i2Run) summary(r *runInfo, d *i2Dir, key string, final *i2Row, failure *sample.RunError, startMS int64) *sample.Throughput {
	rec := r.record(sample.RecordSummary, startMS)
	rec.Error = failure
	if final == nil {
		return rec
	}
	report := run.reports[key]
	switch {
	case d.sends == nil: // whose rows these are is unknown: neither sent nor received
	case !*d.sends:
		report = final // this side received: its rows are what was received
	default:
		rec.SentBytes, rec.SentBitsPerSecond = sample.I64(final.bytes), sample.F64(final.bps)
		if n, ok := run.sent[key]; ok {
			rec.Packets = count(&n)
		} else if len(run.sent) == 1 && d.suffix == "" {
			for _, n := range run.sent {
				rec.Packets = count(&n)
			}
		}
		rec.Retransmits = final.retransmits
	}
	if rec.Error != nil {
		return rec
	}
	main := final
	if report != nil {
		rec.ReceivedBytes, rec.ReceivedBitsPerSecond = sample.I64(report.bytes), sample.F64(report.bps)
		rowLoss(rec, report)
		rec.OutOfOrder = report.outOfOrder
		main = report
	}
	rec.Bytes, rec.BitsPerSecond = sample.I64(main.bytes), sample.F64(main.bps)
	rec.StartS, rec.EndS, rec.DurationS = sample.F64(main.start), sample.F64(main.end), sample.F64(main.end-main.start)
	return rec
}

// rowLoss copies a UDP receiver row's jitter and loss.
func rowLoss(rec *sample.Throughput, row *i2Row) {
	if row.jitter == nil {
		return
	}
	rec.JitterMs = sample.F64(*row.jitter)
	rec.LostPackets, rec.Packets = row.lost, row.total
	rec.LossPercent = pct(row.lossPct)
}

// rowTCP copies what -e prints for a TCP sender: retransmits, the congestion window and RTT.
func rowTCP(rec *sample.Throughput, row *i2Row) {
	rec.Retransmits, rec.SndCwndBytes = row.retransmits, row.cwnd
	if row.rttUs != nil {
		rec.RTTMs = sample.F64(*row.rttUs / 1000)
	}
	if row.rttVarUs != nil {
		rec.RTTVarMs = sample.F64(*row.rttVarUs / 1000)
	}
}

// errorAt is an error at line no, found again in the input: rows keep their line number only.
func (run *i2Run) errorAt(no int, format string, args ...any) error {
	var err error = &probekit.LineError{Line: no, Msg: fmt.Sprintf(format, args...)}
	_ = probekit.EachLine(run.input, func(l probekit.TextLine) error {
		if l.No < no {
			return nil
		}
		err = l.Errorf(format, args...)
		return errStop
	})
	return err
}

var errStop = errors.New("stop")
