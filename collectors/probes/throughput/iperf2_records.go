package throughput

import (
	"sort"

	"longhaul/collectors/probes/probekit"
	"longhaul/collectors/sample"
)

// records turns the rows of the run into interval records and the summary.
func (run *i2Run) records(m probekit.Meta, startMS int64) ([]sample.Sample, error) {
	if len(run.rows) == 0 && run.failure == nil {
		return nil, &probekit.LineError{Line: 1, Msg: "no iperf 2 throughput rows and no error: nothing to import"}
	}
	key, err := run.key()
	if err != nil {
		return nil, err
	}
	intervals, final, err := run.split(key)
	if err != nil {
		return nil, err
	}
	if final == nil && run.failure == nil {
		return nil, &probekit.LineError{Line: intervals[len(intervals)-1].line.No, Msg: "the run has no final row (0.0-N sec): the output is incomplete"}
	}
	r := run.info(m)
	var ss []sample.Sample
	for _, row := range intervals {
		ts, err := probekit.OffsetMS(startMS, row.end)
		if err != nil {
			return nil, row.line.Errorf("%v", err)
		}
		rec := r.record(sample.RecordInterval, ts)
		rec.StartS, rec.EndS = sample.F64(row.start), sample.F64(row.end)
		rec.Bytes, rec.BitsPerSecond = sample.I64(row.bytes), sample.F64(row.bps)
		rowLoss(rec, row)
		rec.OutOfOrder = run.outOfOrder(key, row)
		ss = append(ss, rec)
	}
	return append(ss, run.summary(r, key, final, startMS)), nil
}

func (run *i2Run) info(m probekit.Meta) *runInfo {
	r := &runInfo{meta: m, tool: "iperf2", target: run.target, port: run.port, protocol: run.protocol, window: run.window}
	n := len(run.ids)
	if n == 0 {
		seen := map[string]bool{}
		for _, row := range run.rows {
			if row.key != "SUM" {
				seen[row.key] = true
			}
		}
		n = len(seen)
	}
	if n > 0 {
		r.streams = sample.I64(int64(n))
	}
	r.fromRequested(Requested{})
	return r
}

// key picks whose rows make the records: [SUM] when iperf printed it, else the one stream.
func (run *i2Run) key() (string, error) {
	keys := map[string]bool{}
	for _, row := range run.rows {
		if row.key == "SUM" {
			return "SUM", nil
		}
		keys[row.key] = true
	}
	if len(keys) > 1 {
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return "", &probekit.LineError{Line: run.rows[0].line.No, Msg: "several streams (" + ks[0] + ", " + ks[1] + ", …) and no [SUM] rows: several runs in one file?"}
	}
	for k := range keys {
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
			return nil, nil, row.line.Errorf("a row after the run's final row (%g-%g sec)", final.start, final.end)
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

func (run *i2Run) summary(r *runInfo, key string, final *i2Row, startMS int64) *sample.Throughput {
	rec := r.record(sample.RecordSummary, startMS)
	rec.Error = run.failure
	if final == nil {
		return rec
	}
	report := run.reports[key]
	if run.mode == "server" {
		report = final // the server's rows are what was received
	} else {
		rec.SentBytes, rec.SentBitsPerSecond = sample.I64(final.bytes), sample.F64(final.bps)
		rec.Packets = count(run.sent)
	}
	if rec.Error != nil {
		return rec
	}
	main := final
	if report != nil {
		rec.ReceivedBytes, rec.ReceivedBitsPerSecond = sample.I64(report.bytes), sample.F64(report.bps)
		rowLoss(rec, report)
		rec.OutOfOrder = run.outOfOrder(key, report)
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
	rec.LostPackets, rec.Packets = sample.I64(*row.lost), sample.I64(*row.total)
	rec.LossPercent = sample.F64(*row.lossPct)
}

// outOfOrder finds the out-of-order count iperf printed after row for the same interval.
func (run *i2Run) outOfOrder(key string, row *i2Row) *int64 {
	for _, o := range run.ooo {
		if o.key == key && o.start == row.start && o.end == row.end && o.line.No > row.line.No {
			return o.outOfOrder
		}
	}
	return nil
}
