package throughput

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"longhaul/probes/probekit"
)

// The lines of iperf 2 (2.0.x, 2.1 default and enhanced -e formats) client and server output.
var (
	reClient = regexp.MustCompile(`^Client connecting to (\S+), (TCP|UDP) port (\d+)\b`)
	reServer = regexp.MustCompile(`^Server listening on (TCP|UDP) port (\d+)\b`)
	// 2.0.13 -d prints "-1.00 Byte (default)" when it could not read the window back: unknown
	reWindow    = regexp.MustCompile(`^(?:TCP window|UDP buffer) size:\s*(-?\d+(?:\.\d+)?)\s*([KMG]?)Bytes?\s*(?:\((default|WARNING: requested\s*(\d+(?:\.\d+)?)\s*([KMG]?)Bytes?)\))?$`)
	reDatagrams = regexp.MustCompile(`^(?:Sending|Receiving) \d+ byte datagrams\b`)
	reIDHeader  = regexp.MustCompile(`^\[\s*ID\]\s+Interval`)
	reTag       = regexp.MustCompile(`^\[\s*(\*?\d+|SUM(?:-\d+)?)\]\s*(.*)$`)
	reConnected = regexp.MustCompile(`^local \S+ port (\d+)\s+connected with \S+ port \d+\b(.*)$`)
	reClock     = regexp.MustCompile(`\bon (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \((UTC|GMT)\)`)
	// A row: interval, transfer, rate, then what the format adds (UDP receiver: jitter and
	// loss; -e: writes, retries, cwnd/RTT, latency, PPS…).
	reRow = regexp.MustCompile(`^(-?\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s+sec\s+(\d+(?:\.\d+)?)\s+([KMGT]?)Bytes\s+(\d+(?:\.\d+)?)\s+([KMGT]?)(bits|Bytes)/sec(\s.*)?$`)
	// Jitter and loss; the percentage is printed with %.2g: 7.6e-05 for one datagram in 1.3
	// million, 1e+02 for all of them.
	reJitter = regexp.MustCompile(`^\s+(\d+(?:\.\d+)?)\s+ms\s+(-?\d+)\s*/\s*(\d+)\s+\((-?(?:\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf))%\)`)
	// -e, TCP sender: Write/Err, Rtry, Cwnd/RTT(var) in K and µs.
	reEnhancedTCP = regexp.MustCompile(`^\s+\d+/\d+\s+(\d+)\s+(\d+)K/(\d+)(?:\((\d+)\))?\s*us\b`)
	reOOO         = regexp.MustCompile(`^(-?\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s+sec\s+(\d+) datagrams received out-of-order$`)
	reSent        = regexp.MustCompile(`^Sent (\d+) datagrams\b`)
	reNoAck       = regexp.MustCompile(`^WARNING: did not receive ack of last datagram after \d+ tries\.?$`)
	reFailed      = regexp.MustCompile(`^((?:tcp |udp )?(?:connect|read|write) failed: .+)$`)
	// Lines that say nothing the records carry: buffer sizes and TOS (-e), the MSS (-m; 2.1
	// prints it in the header, 2.0 after the run with the MTU), arguments iperf ignored.
	// -P with -e (2.1): "[ CT] final connect times (min/avg/max/stdev) = 31.182/… ms (tot/err) = 4/0".
	reInfo = regexp.MustCompile(`^(?:\[ CT\] (?:final )?connect times|Write buffer size:|Read buffer size:|TOS set to |MSS size \d+ bytes|MSS and MTU size unknown|iperf: ignoring extra argument|Waiting for server threads to complete)`)
	// -y C: time, source, port, destination, port, id, interval, bytes, bits/s [, jitter ms,
	// lost, total, loss %, out-of-order] [, -e columns].
	reCSV = regexp.MustCompile(`^(\d{14}(?:\.\d+)?),([^,]*),(\d+),([^,]*),(\d+),(-?\d+),(-?\d+(?:\.\d+)?)-(\d+(?:\.\d+)?),(\d+),(\d+(?:\.\d+)?)(?:,(-?\d+(?:\.\d+)?),(-?\d+),(-?\d+),(-?(?:\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf)),(-?\d+))?(?:,.*)?$`)
)

// i2Row is a throughput row: an interval, a run's final row or a server report.
type i2Row struct {
	no           int    // its line number: the text is not kept (a long log's rows are many), see i2Run.errorAt
	key          string // stream id or SUM
	start, end   float64
	bytes        int64
	bps          float64
	jitter       *float64
	lost, total  *int64
	lossPct      *float64
	retransmits  *int64
	cwnd         *int64
	rttUs        *float64
	rttVarUs     *float64
	outOfOrder   *int64 // the "datagrams received out-of-order" line after the row
	serverReport bool
}

var binary = map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
var decimal = map[string]float64{"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}

// parseRow reads a throughput row; Bytes are powers of 1024, bits powers of 1000 (iperf 2's
// adaptive units), a Bytes/sec rate is converted to bits. nil when rest is not a row.
func parseRow(l probekit.TextLine, key, rest string) (*i2Row, error) {
	m := reRow.FindStringSubmatch(rest)
	if m == nil {
		return nil, nil
	}
	r := &i2Row{no: l.No, key: key}
	start, _ := strconv.ParseFloat(m[1], 64)
	r.start = math.Abs(start) // iperf 2 prints "-0.0- 1.0 sec" for the first UDP interval
	r.end, _ = strconv.ParseFloat(m[2], 64)
	size, _ := strconv.ParseFloat(m[3], 64)
	rate, _ := strconv.ParseFloat(m[5], 64)
	bytes := size * binary[m[4]]
	if m[7] == "Bytes" {
		r.bps = rate * binary[m[6]] * 8
	} else {
		r.bps = rate * decimal[m[6]]
	}
	if err := r.set(l, rest, bytes); err != nil {
		return nil, err
	}
	extra := m[8]
	if j := reJitter.FindStringSubmatch(extra); j != nil {
		jitter, _ := strconv.ParseFloat(j[1], 64)
		return r, r.setLoss(l, rest, jitter, j[2], j[3], j[4])
	}
	if e := reEnhancedTCP.FindStringSubmatch(extra); e != nil {
		retr, err1 := strconv.ParseInt(e[1], 10, 64)
		cwndK, err2 := strconv.ParseInt(e[2], 10, 64)
		rtt, _ := strconv.ParseFloat(e[3], 64)
		if err1 == nil && err2 == nil && cwndK < 1<<40 && rtt < 1e12 {
			cwnd := cwndK << 10
			r.retransmits, r.cwnd = &retr, &cwnd
			if rtt > 0 {
				r.rttUs = &rtt
			}
			if e[4] != "" {
				v, _ := strconv.ParseFloat(e[4], 64)
				if v > 0 && v < 1e12 {
					r.rttVarUs = &v
				}
			}
		}
	}
	return r, nil
}

// set checks the interval and the byte count.
func (r *i2Row) set(l probekit.TextLine, rest string, bytes float64) error {
	if r.end < r.start || bytes > 1<<62 || r.bps > 1e18 || r.end > 1e7 {
		return l.ErrorAt(len(l.Text)-len(rest), "interval or figures out of range")
	}
	r.bytes = int64(math.Round(bytes))
	return nil
}

// setLoss reads UDP jitter (ms), lost/total datagrams and the loss percentage. iperf 2
// prints a negative lost count when datagrams arrive out of order and nan% for an empty
// interval: those figures are left out, not clamped.
func (r *i2Row) setLoss(l probekit.TextLine, rest string, jitter float64, lost, total, pctText string) error {
	nLost, err1 := strconv.ParseInt(lost, 10, 64)
	nTotal, err2 := strconv.ParseInt(total, 10, 64)
	if err1 != nil || err2 != nil || jitter > 1e9 {
		return l.ErrorAt(len(l.Text)-len(rest), "jitter or datagram counts out of range")
	}
	r.jitter = &jitter
	if nTotal >= 0 {
		r.total = &nTotal
	}
	if nLost >= 0 && nTotal >= 0 && nLost <= nTotal {
		r.lost = &nLost
		if p, err := strconv.ParseFloat(pctText, 64); err == nil && p >= 0 && p <= 100 {
			r.lossPct = &p
		}
	}
	return nil
}

// parseCSV reads a -y C row: bytes and bits/s are exact, the UDP columns are the receiver's
// (a client's rows carry zeros and a final total of -1: see i2Run.csvSides).
func parseCSV(l probekit.TextLine) (*i2Row, error) {
	m := reCSV.FindStringSubmatch(l.Text)
	if m == nil {
		return nil, l.Errorf("not a row of iperf 2 -y C output")
	}
	key := strings.TrimPrefix(m[6], "-")
	if strings.HasPrefix(m[6], "-") {
		key = "SUM" // -1: the sum of the -P streams
	}
	r := &i2Row{no: l.No, key: key}
	start, _ := strconv.ParseFloat(m[7], 64)
	r.start = math.Abs(start)
	r.end, _ = strconv.ParseFloat(m[8], 64)
	bytes, _ := strconv.ParseFloat(m[9], 64)
	r.bps, _ = strconv.ParseFloat(m[10], 64)
	if err := r.set(l, l.Text, bytes); err != nil {
		return nil, err
	}
	if m[11] != "" {
		jitter, _ := strconv.ParseFloat(m[11], 64)
		if jitter < 0 {
			return r, nil
		}
		return r, r.setLoss(l, l.Text, jitter, m[12], m[13], m[14])
	}
	return r, nil
}

// csvHost returns the destination address and port of a -y C row.
func csvHost(t string) (string, string) {
	m := reCSV.FindStringSubmatch(t)
	if m == nil {
		return "", ""
	}
	return m[4], m[5]
}

// clockOf reads the time -e prints on a connection line ("on 2026-11-24 01:03:54 (UTC)").
// Other zones are ambiguous abbreviations: --ts is needed then.
func clockOf(rest string) *time.Time {
	m := reClock.FindStringSubmatch(rest)
	if m == nil {
		return nil
	}
	t, err := time.Parse("2006-01-02 15:04:05", m[1])
	if err != nil {
		return nil
	}
	return &t
}

// parseSizeWord converts "32.0" "M" (Byte) into bytes.
func parseSizeWord(num, unit string) int64 {
	v, _ := strconv.ParseFloat(num, 64)
	return int64(math.Round(v * binary[unit]))
}

// isSeparator is iperf's "------" rule.
func isSeparator(s string) bool { return strings.Trim(s, "-") == "" }
