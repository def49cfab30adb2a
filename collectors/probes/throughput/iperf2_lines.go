package throughput

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"longhaul/collectors/probes/probekit"
)

// The lines of iperf 2 (2.0.x and 2.1 default format) client and server output.
var (
	reClient    = regexp.MustCompile(`^Client connecting to (\S+), (TCP|UDP) port (\d+)\b`)
	reServer    = regexp.MustCompile(`^Server listening on (TCP|UDP) port (\d+)\b`)
	reWindow    = regexp.MustCompile(`^(?:TCP window|UDP buffer) size:\s*(\d+(?:\.\d+)?)\s*([KMG]?)Bytes?\s*(?:\((default|WARNING: requested\s*(\d+(?:\.\d+)?)\s*([KMG]?)Bytes?)\))?$`)
	reDatagrams = regexp.MustCompile(`^(?:Sending|Receiving) \d+ byte datagrams\b`)
	reIDHeader  = regexp.MustCompile(`^\[\s*ID\]\s+Interval`)
	reTag       = regexp.MustCompile(`^\[\s*(\d+|SUM)\]\s*(.*)$`)
	reConnected = regexp.MustCompile(`^local \S+ port \d+\s+connected with \S+ port \d+\b`)
	reRow       = regexp.MustCompile(`^(-?\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s+sec\s+(\d+(?:\.\d+)?)\s+([KMGT]?)Bytes\s+(\d+(?:\.\d+)?)\s+([KMGT]?)(bits|Bytes)/sec(?:\s+(\d+(?:\.\d+)?)\s+ms\s+(\d+)\s*/\s*(\d+)\s+\((\d+(?:\.\d+)?)%\))?$`)
	reOOO       = regexp.MustCompile(`^(-?\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s+sec\s+(\d+) datagrams received out-of-order$`)
	reSent      = regexp.MustCompile(`^Sent (\d+) datagrams\b`)
	reNoAck     = regexp.MustCompile(`^WARNING: did not receive ack of last datagram after \d+ tries\.?$`)
	reFailed    = regexp.MustCompile(`^((?:tcp |udp )?(?:connect|read|write) failed: .+)$`)
)

// i2Row is a throughput row: an interval, a run's final row or a server report.
type i2Row struct {
	line         probekit.Line
	key          string // stream id or SUM
	start, end   float64
	bytes        int64
	bps          float64
	jitter       *float64
	lost, total  *int64
	lossPct      *float64
	outOfOrder   *int64
	serverReport bool
}

var binary = map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
var decimal = map[string]float64{"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}

// parseRow reads a throughput row; Bytes are powers of 1024, bits powers of 1000 (iperf 2's
// adaptive units), a Bytes/sec rate is converted to bits.
func parseRow(l probekit.Line, key, rest string) (*i2Row, error) {
	m := reRow.FindStringSubmatch(rest)
	if m == nil {
		return nil, nil
	}
	r := &i2Row{line: l, key: key}
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
	if r.end < r.start || bytes > 1<<62 || r.bps > 1e18 || r.end > 1e7 {
		return nil, l.Errorf("interval %s-%s sec, %s %sBytes, %s: figures out of range", m[1], m[2], m[3], m[4], m[5])
	}
	r.bytes = int64(math.Round(bytes))
	if m[8] != "" {
		j, _ := strconv.ParseFloat(m[8], 64)
		lost, err1 := strconv.ParseInt(m[9], 10, 64)
		total, err2 := strconv.ParseInt(m[10], 10, 64)
		p, _ := strconv.ParseFloat(m[11], 64)
		if err1 != nil || err2 != nil || p > 100 {
			return nil, l.Errorf("jitter/loss %s/%s (%s%%) out of range", m[9], m[10], m[11])
		}
		r.jitter, r.lost, r.total, r.lossPct = &j, &lost, &total, &p
	}
	return r, nil
}

// parseSizeWord converts "32.0" "M" (Byte) into bytes.
func parseSizeWord(num, unit string) int64 {
	v, _ := strconv.ParseFloat(num, 64)
	return int64(math.Round(v * binary[unit]))
}

// isSeparator is iperf's "------" rule.
func isSeparator(s string) bool { return strings.Trim(s, "-") == "" }
