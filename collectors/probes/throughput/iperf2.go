package throughput

import (
	"strconv"
	"strings"

	"longhaul/collectors/probes/probekit"
	"longhaul/collectors/sample"
)

// i2Run is what the lines of one iperf 2 run say.
type i2Run struct {
	mode     string // client or server
	protocol string
	target   *string
	port     *int64
	window   *int64
	ids      map[string]bool
	rows     []*i2Row
	reports  map[string]*i2Row
	pending  map[string]bool // "Server Report:" seen, its row not yet
	ooo      []*i2Row        // out-of-order counts, matched to rows by interval
	sent     *int64
	failure  *sample.RunError
}

// ParseIperf2 imports the text output of one iperf 2 run, client or server side, TCP or UDP,
// as interval records and one summary. iperf 2 prints no clock: m.Start is required.
// The rows of one stream are used, or the [SUM] rows when there are several; the final row is
// the one that starts again at 0.0. A UDP client's summary takes the receiver's figures from
// the "Server Report:"; without one ("did not receive ack of last datagram") it carries only
// what the client counted. "connect failed" / "read failed" make the summary's error.
func ParseIperf2(out []byte, m probekit.Meta) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	startMS, err := m.StartMS()
	if err != nil {
		return nil, err
	}
	run := &i2Run{ids: map[string]bool{}, reports: map[string]*i2Row{}, pending: map[string]bool{}}
	for _, l := range probekit.Lines(out) {
		if err := run.line(l); err != nil {
			return nil, err
		}
	}
	return run.records(m, startMS)
}

func (run *i2Run) line(l probekit.Line) error {
	t := l.Text
	if isSeparator(t) || reDatagrams.MatchString(t) || reIDHeader.MatchString(t) {
		return nil
	}
	if mm := reClient.FindStringSubmatch(t); mm != nil {
		return run.header(l, "client", mm[2], mm[3], &mm[1])
	}
	if mm := reServer.FindStringSubmatch(t); mm != nil {
		return run.header(l, "server", mm[1], mm[2], nil)
	}
	if mm := reWindow.FindStringSubmatch(t); mm != nil {
		switch {
		case mm[4] != "":
			run.window = sample.I64(parseSizeWord(mm[4], mm[5]))
		case mm[3] == "":
			run.window = sample.I64(parseSizeWord(mm[1], mm[2]))
		}
		return nil
	}
	if mm := reTag.FindStringSubmatch(t); mm != nil {
		return run.tagged(l, mm[1], strings.TrimSpace(mm[2]))
	}
	return run.untagged(l, t)
}

func (run *i2Run) header(l probekit.Line, mode, proto, port string, target *string) error {
	if run.mode != "" {
		return l.Errorf("a second iperf run starts here: import one run per file")
	}
	run.mode, run.protocol = mode, strings.ToLower(proto)
	if p, err := strconv.Atoi(port); err == nil && p >= 1 && p <= 65535 {
		run.port = sample.I64(int64(p))
	}
	run.target = target
	return nil
}

func (run *i2Run) untagged(l probekit.Line, t string) error {
	switch {
	case reNoAck.MatchString(t):
		return nil // the client never heard from the server: no receiver figures, nothing more
	case reFailed.MatchString(t):
		run.failure = probekit.RunError(t)
		return nil
	case strings.HasPrefix(t, "WARNING:"):
		return nil
	}
	return l.Errorf("not a line of iperf 2 output: %q", t)
}

func (run *i2Run) tagged(l probekit.Line, key, rest string) error {
	switch {
	case rest == "Server Report:":
		run.pending[key] = true
		return nil
	case reConnected.MatchString(rest):
		if key != "SUM" {
			run.ids[key] = true
		}
		return nil
	case reNoAck.MatchString(rest):
		return nil
	case reFailed.MatchString(rest):
		run.failure = probekit.RunError(rest)
		return nil
	}
	if mm := reSent.FindStringSubmatch(rest); mm != nil {
		n, err := strconv.ParseInt(mm[1], 10, 64)
		if err != nil {
			return l.Errorf("datagram count %q out of range", mm[1])
		}
		run.sent = &n
		return nil
	}
	if mm := reOOO.FindStringSubmatch(rest); mm != nil {
		start, _ := strconv.ParseFloat(mm[1], 64)
		end, _ := strconv.ParseFloat(mm[2], 64)
		n, err := strconv.ParseInt(mm[3], 10, 64)
		if err != nil {
			return l.Errorf("out-of-order count %q out of range", mm[3])
		}
		run.ooo = append(run.ooo, &i2Row{line: l, key: key, start: abs(start), end: end, outOfOrder: &n})
		return nil
	}
	row, err := parseRow(l, key, rest)
	if err != nil {
		return err
	}
	if row == nil {
		return l.Errorf("not a line of iperf 2 output: %q", l.Text)
	}
	if run.pending[key] {
		row.serverReport = true
		run.reports[key] = row
		run.pending[key] = false
		return nil
	}
	run.rows = append(run.rows, row)
	return nil
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
