package throughput

import (
	"strconv"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// i2Run is what the lines of one iperf 2 run say.
type i2Run struct {
	protocol string
	client   *i2Header // "Client connecting to …"
	server   *i2Header // "Server listening on …" (a client's too in a dual test, -d / -r)
	window   *int64
	conns    map[string]*i2Conn // connection lines by stream id
	first    *i2Conn            // the first connection line
	starred  map[string]bool    // rows tagged [ *N] (2.1: the stream runs reversed)
	rows     []*i2Row
	reports  map[string]*i2Row
	pending  map[string]bool   // "Server Report:" seen, its row not yet
	last     map[string]*i2Row // each stream's latest row: its out-of-order line follows it
	sent     map[string]int64  // "Sent N datagrams" by stream
	failure  *sample.RunError
	clock    *time.Time // -e prints when the connection was made
	csv      bool       // -y C rows
	csvDst   [2]string  // destination address and port of the first -y C row
	lastLine int
	lines    int    // meaningful lines so far
	input    []byte // for errorAt
}

type i2Header struct {
	target string
	port   *int64
}

type i2Conn struct {
	localPort int64
	reverse   bool // 2.1 marks "(reverse)" a stream that runs against its connection
}

// ParseIperf2 imports the output of one iperf 2 run as interval records and one summary per
// direction: text (2.0.x, 2.1's default and -e enhanced formats) or -y C, client or server
// side, TCP or UDP, one direction, -R (2.1: the server sends) or both (-d, -r: each direction
// is a run of its own, run id + "-forward" / "-reverse").
//
// iperf 2 prints no clock except -e's connection time in UTC: m.Start is required otherwise.
// The rows of one stream are used, or the [SUM] rows when there are several; the final row is
// the one that starts again at 0.0. A UDP client's summary takes the receiver's figures from
// the "Server Report:"; without one ("did not receive ack of last datagram") it carries only
// what the client counted. "connect failed" / "read failed" make the summary's error.
func ParseIperf2(out []byte, m probekit.Meta) ([]sample.Sample, error) {
	var ss []sample.Sample
	if err := EachIperf2(out, m, func(s sample.Sample) error { ss = append(ss, s); return nil }); err != nil {
		return nil, err
	}
	return ss, nil
}

// EachIperf2 is ParseIperf2 handing the samples to emit one at a time, so that a long log
// (300 000 intervals: 45 MB) is never held as samples at once. The whole input is checked
// first: a parse error comes before the first sample, never after; emit's error stops it.
func EachIperf2(out []byte, m probekit.Meta, emit func(sample.Sample) error) error {
	return boundErr(eachIperf2(out, m, emit))
}

func eachIperf2(out []byte, m probekit.Meta, emit func(sample.Sample) error) error {
	if err := m.Check(); err != nil {
		return err
	}
	run := &i2Run{conns: map[string]*i2Conn{}, starred: map[string]bool{}, reports: map[string]*i2Row{},
		pending: map[string]bool{}, last: map[string]*i2Row{}, sent: map[string]int64{}, input: out}
	if err := probekit.EachLine(out, run.line); err != nil {
		return err
	}
	startMS, err := run.startMS(m)
	if err != nil {
		return err
	}
	return run.records(m, startMS, emit)
}

// startMS is -e's connection time when it printed one in UTC, else m.Start.
func (run *i2Run) startMS(m probekit.Meta) (int64, error) {
	if run.clock != nil {
		return probekit.CheckEpochMS(run.clock.UnixMilli())
	}
	return m.StartMS()
}

func (run *i2Run) line(l probekit.TextLine) error {
	run.lastLine = l.No
	t := l.Text
	if run.lines++; run.lines == 1 && probekit.CommandLine(t, "iperf", "iperf2") {
		return nil // a capture that begins with the command that printed it
	}
	if run.csv || (len(run.rows) == 0 && run.client == nil && run.server == nil && reCSV.MatchString(t)) {
		return run.csvLine(l)
	}
	if strings.HasPrefix(t, "[") { // most lines: rows, tagged (tried first, for speed)
		if reIDHeader.MatchString(t) {
			return nil
		}
		if mm := reTag.FindStringSubmatch(t); mm != nil {
			return run.tag(l, mm[1], mm[2])
		}
	}
	if isSeparator(t) || reDatagrams.MatchString(t) || reInfo.MatchString(t) {
		return nil
	}
	if mm := reClient.FindStringSubmatch(t); mm != nil {
		return run.header(l, &run.client, mm[2], mm[3], mm[1])
	}
	if mm := reServer.FindStringSubmatch(t); mm != nil {
		return run.header(l, &run.server, mm[1], mm[2], "")
	}
	if mm := reWindow.FindStringSubmatch(t); mm != nil {
		if run.window != nil {
			return nil // a dual test's second header: the first one's window is the test's
		}
		switch {
		case mm[4] != "":
			run.window = sample.I64(parseSizeWord(mm[4], mm[5]))
		case strings.HasPrefix(mm[1], "-"): // unknown
		case mm[3] == "":
			run.window = sample.I64(parseSizeWord(mm[1], mm[2]))
		}
		return nil
	}
	return run.untagged(l, t)
}

// tag reads a line tagged with its stream ([  3], [ *2] reversed in 2.1, [SUM], [SUM-2]).
func (run *i2Run) tag(l probekit.TextLine, key, rest string) error {
	if strings.HasPrefix(key, "SUM") {
		key = "SUM"
	} else if strings.HasPrefix(key, "*") {
		key = key[1:]
		run.starred[key] = true
	}
	return run.tagged(l, key, strings.TrimSpace(rest))
}

// header reads "Client connecting to" / "Server listening on". One of each is a dual test
// (the client listens for the server's connection back); a second of a kind is a second run.
func (run *i2Run) header(l probekit.TextLine, h **i2Header, proto, port, target string) error {
	if *h != nil {
		return l.Errorf("a second iperf run starts here: import one run per file")
	}
	p := strings.ToLower(proto)
	if run.protocol != "" && run.protocol != p {
		return l.ErrorAtToken(proto, "a %s run in a %s run's output: import one run per file", p, run.protocol)
	}
	run.protocol = p
	hd := &i2Header{target: probekit.Snippet(target)}
	if n, err := strconv.Atoi(port); err == nil && n >= 1 && n <= 65535 {
		hd.port = sample.I64(int64(n))
	}
	*h = hd
	return nil
}

func (run *i2Run) untagged(l probekit.TextLine, t string) error {
	switch {
	case reNoAck.MatchString(t):
		return nil // the client never heard from the server: no receiver figures, nothing more
	case reFailed.MatchString(t):
		run.failure = probekit.RunError(t)
		return nil
	case strings.HasPrefix(t, "WARNING:"):
		return nil
	}
	return l.Errorf("not a line of iperf 2 output")
}

func (run *i2Run) tagged(l probekit.TextLine, key, rest string) error {
	if rest != "" && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == '-') { // a row, most often
		row, err := parseRow(l, key, rest)
		if err != nil || row != nil {
			return run.addRow(key, row, err)
		}
	}
	switch {
	case rest == "Server Report:":
		run.pending[key] = true
		return nil
	case reNoAck.MatchString(rest), reInfo.MatchString(rest):
		return nil
	case reFailed.MatchString(rest):
		run.failure = probekit.RunError(rest)
		return nil
	}
	if mm := reConnected.FindStringSubmatch(rest); mm != nil {
		return run.connected(key, mm[1], mm[2])
	}
	if mm := reSent.FindStringSubmatch(rest); mm != nil {
		n, err := strconv.ParseInt(mm[1], 10, 64)
		if err != nil {
			return l.ErrorAtToken(mm[1], "datagram count out of range")
		}
		run.sent[key] = n
		return nil
	}
	if mm := reOOO.FindStringSubmatch(rest); mm != nil {
		start, _ := strconv.ParseFloat(mm[1], 64)
		end, _ := strconv.ParseFloat(mm[2], 64)
		n, err := strconv.ParseInt(mm[3], 10, 64)
		if err != nil {
			return l.ErrorAtToken(mm[3], "out-of-order count out of range")
		}
		// iperf prints it right after the interval's row (or the server report's)
		if r := run.last[key]; r != nil && r.start == abs(start) && r.end == end {
			r.outOfOrder = &n
		}
		return nil
	}
	row, err := parseRow(l, key, rest)
	if err == nil && row == nil {
		return l.ErrorAt(len(l.Text)-len(rest), "not a line of iperf 2 output")
	}
	return run.addRow(key, row, err)
}

// addRow keeps a row: a server report when "Server Report:" announced it, else a row of the
// stream's own.
func (run *i2Run) addRow(key string, row *i2Row, err error) error {
	if err != nil {
		return err
	}
	run.last[key] = row
	if run.pending[key] {
		row.serverReport = true
		run.reports[key] = row
		run.pending[key] = false
		return nil
	}
	run.rows = append(run.rows, row)
	return nil
}

// connected reads a connection line: which port the stream is on locally (a dual test's
// listening port: the stream came from the other side) and -e's clock.
func (run *i2Run) connected(key, localPort, rest string) error {
	if key == "SUM" {
		return nil
	}
	c := &i2Conn{reverse: strings.Contains(rest, "(reverse)")}
	c.localPort, _ = strconv.ParseInt(localPort, 10, 64)
	if _, seen := run.conns[key]; !seen {
		run.conns[key] = c
	}
	if run.first == nil {
		run.first = c
	}
	if run.clock == nil {
		run.clock = clockOf(rest)
	}
	return nil
}

// csvLine reads a -y C row; a file of them has no other lines than what iperf warns.
func (run *i2Run) csvLine(l probekit.TextLine) error {
	if strings.HasPrefix(l.Text, "WARNING:") || reInfo.MatchString(l.Text) {
		return nil
	}
	row, err := parseCSV(l)
	if err != nil {
		return err
	}
	if !run.csv {
		run.csv = true
		a, p := csvHost(l.Text)
		run.csvDst = [2]string{a, p}
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
