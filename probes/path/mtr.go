package path

import (
	"bytes"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

var (
	// "  1.|-- 10.77.1.1   66.7%  3  0.1 …" (--report), "  1. AS1234   host  0.0% …" (-z)
	reMtrHop = regexp.MustCompile(`^(\d{1,3})\.(?:\|--|\s+AS(\d+|\?+)(?:\s|$))\s*(.*)$`)
	// "|  `|-- 10.0.0.3", "|   |-- 10.0.0.4": another router answered at the hop above.
	reMtrAlt = regexp.MustCompile("^\\|\\s+[`|]?\\|-- (\\S+)$")
	// "|  |+-- [MPLS: Lbl 24001 TC 0 S 1 TTL 1]" (-e)
	reMtrMPLS = regexp.MustCompile(`^\|.*\[MPLS: .*\]$`)
)

// maxMtrJSON bounds an mtr --json document: 255 hops of a few hundred bytes.
const maxMtrJSON = 1 << 20

// ParseMtr imports `mtr --report` (or --report-wide) text or `mtr --json` as one path sample
// with tool "mtr". mtr sends many probes and prints one summary per router, so each router
// is one answer at its TTL: its address (what mtr printed: without -n or -b, a name, kept as
// address and name), the average RTT (Avg; Last or Best when the columns were chosen without
// it) and its AS number with -z; "???" or 100% loss is `*`. A router mtr lists below a hop
// (load balancing) is another answer there, with no RTT of its own. queries is null (mtr's
// count is per router, not per hop). The JSON names the target; the report does not, so it
// is m.Target. m.Start is required: the JSON has no clock, and the report's Start line has
// only seconds. When mtr could not run ("mtr: Failed to resolve host: …") the sample carries
// the error and no hops.
func ParseMtr(out []byte, m probekit.Meta, q Requested) ([]sample.Sample, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	ts, err := m.StartMS()
	if err != nil {
		return nil, err
	}
	p := sample.NewPath(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	p.Tool = "mtr"
	var msgs []string
	if t := bytes.TrimSpace(out); len(t) > 0 && t[0] == '{' {
		err = mtrJSON(p, out)
	} else {
		msgs, err = mtrReport(p, out)
	}
	if err != nil {
		return nil, err
	}
	if len(msgs) > 0 {
		p.Error = probekit.RunError(strings.Join(msgs, "\n"))
	}
	if len(p.Hops) == 0 && p.Error == nil {
		return nil, &probekit.LineError{Line: 1, Msg: "no mtr hops and no error message: nothing to import"}
	}
	if p.Target == nil && m.Target != "" {
		t := m.Target
		p.Target = &t
	}
	if p.DstAddr == nil && p.Target != nil && net.ParseIP(*p.Target) != nil {
		p.DstAddr = p.Target
	}
	finish(p, m, q)
	p.Queries = nil
	return []sample.Sample{p}, nil
}

// mtrProbe is one router's summary as an answer.
func mtrProbe(host string, name *string, loss, rtt *float64, asn *int64) sample.HopProbe {
	if host == "???" || (loss != nil && *loss >= 100) || rtt == nil {
		return sample.HopProbe{}
	}
	h := host
	pr := sample.HopProbe{Addr: &h, Name: name, RTTMs: rtt, ASN: asn}
	if name == nil && !isIP(host) {
		pr.Name = &h
	}
	return pr
}

// addMtrProbe puts an answer at its TTL: TTLs must not go down, a TTL seen again gets
// another answer.
func addMtrProbe(p *sample.Path, ttl int, pr sample.HopProbe) error {
	hops := p.Hops
	switch {
	case ttl < 1 || ttl > 255:
		return fmt.Errorf("hop %d is out of range", ttl)
	case len(hops) > 0 && ttl < hops[len(hops)-1].TTL:
		return fmt.Errorf("hop %d does not follow hop %d", ttl, hops[len(hops)-1].TTL)
	case len(hops) == 0 || ttl > hops[len(hops)-1].TTL:
		p.Hops = append(p.Hops, sample.Hop{TTL: ttl})
	}
	hop := &p.Hops[len(p.Hops)-1]
	if len(hop.Probes) == maxProbes {
		return fmt.Errorf("more than %d routers at hop %d", maxProbes, ttl)
	}
	hop.Probes = append(hop.Probes, pr)
	return nil
}

// mtrReport reads the text of --report: the HOST line names the columns, each hop line ends
// with one value per column; "mtr: …" lines (mtr could not run) are returned as messages.
func mtrReport(p *sample.Path, out []byte) ([]string, error) {
	var cols, msgs []string
	err := probekit.EachLine(out, func(l probekit.TextLine) error {
		t := l.Text
		switch {
		case strings.HasPrefix(t, "Start: "), reMtrMPLS.MatchString(t):
			return nil
		case strings.HasPrefix(t, "mtr: "):
			if len(msgs) < 8 {
				msgs = append(msgs, t)
			}
			return nil
		case strings.HasPrefix(t, "HOST: "):
			f := strings.Fields(t)
			if cols != nil || len(f) < 3 {
				return l.Errorf("a second or empty HOST line: import one mtr report per file")
			}
			cols = f[2:]
			return nil
		case cols == nil:
			return l.Errorf("not a line of mtr --report before its HOST line")
		}
		if mm := reMtrAlt.FindStringSubmatch(t); mm != nil {
			if len(p.Hops) == 0 {
				return l.Errorf("a router listed under no hop")
			}
			h := mm[1]
			pr := sample.HopProbe{Addr: &h}
			if !isIP(h) {
				pr.Name = &h
			}
			if err := addMtrProbe(p, p.Hops[len(p.Hops)-1].TTL, pr); err != nil {
				return l.Errorf("%v", err)
			}
			return nil
		}
		mm := reMtrHop.FindStringSubmatch(t)
		if mm == nil {
			return l.Errorf("not a line of mtr --report")
		}
		f := strings.Fields(mm[3])
		if len(f) < len(cols)+1 || len(f) > len(cols)+2 {
			return l.Errorf("a hop with %d values for %d columns", len(f)-1, len(cols))
		}
		host, vals := f[0], f[len(f)-len(cols):]
		var name *string
		if len(f) == len(cols)+2 {
			a := strings.TrimSuffix(strings.TrimPrefix(f[1], "("), ")")
			if f[1] != "("+a+")" {
				return l.ErrorAtToken(f[1], "want (address) after the name")
			}
			n := f[0]
			if host = a; n != a {
				name = &n
			}
		}
		loss, rtt, bad := mtrFigures(cols, vals)
		if bad >= 0 {
			return l.ErrorAt(valueAt(t, len(f)-len(cols)+bad), "column %s: not a figure", cols[bad])
		}
		ttl, _ := strconv.Atoi(mm[1])
		if err := addMtrProbe(p, ttl, mtrProbe(host, name, loss, rtt, asnOf(mm[2]))); err != nil {
			return l.Errorf("%v", err)
		}
		return nil
	})
	return msgs, err
}

// mtrFigures picks the loss and an RTT from a hop's values by column name; bad is the index
// of a value that is not a figure, or -1.
func mtrFigures(cols, vals []string) (loss, rtt *float64, bad int) {
	by := map[string]*float64{}
	for i, c := range cols {
		v, perr := strconv.ParseFloat(strings.TrimSuffix(vals[i], "%"), 64)
		if perr != nil || v < 0 || v > 1e7 {
			return nil, nil, i
		}
		by[c] = &v
	}
	for _, c := range []string{"Avg", "Last", "Best"} {
		if by[c] != nil {
			rtt = by[c]
			break
		}
	}
	return by["Loss%"], rtt, -1
}

// valueAt is the byte offset in the hop line t of the n-th word after "N.|--" (or the AS).
func valueAt(t string, n int) int {
	m := reMtrHop.FindStringSubmatchIndex(t)
	off := m[6]
	for i := 0; i <= n; i++ {
		for off < len(t) && t[off] == ' ' {
			off++
		}
		if i == n {
			return off
		}
		for off < len(t) && t[off] != ' ' {
			off++
		}
	}
	return off
}

func asnOf(s string) *int64 {
	if v, err := strconv.ParseInt(strings.TrimPrefix(s, "AS"), 10, 64); err == nil && v >= 0 {
		return &v
	}
	return nil
}

// flexNum is a number mtr wrote as a number or, in older versions, as a string.
type flexNum struct{ v *float64 }

func (n *flexNum) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1e7 {
		return fmt.Errorf("%s is not a figure", probekit.Snippet(string(b)))
	}
	n.v = &v
	return nil
}

type mtrDoc struct {
	Report *struct {
		Mtr struct {
			Dst string `json:"dst"`
		} `json:"mtr"`
		Hubs []struct {
			Count flexNum `json:"count"`
			Host  string  `json:"host"`
			ASN   string  `json:"ASN"`
			Loss  flexNum `json:"Loss%"`
			Avg   flexNum `json:"Avg"`
			Last  flexNum `json:"Last"`
		} `json:"hubs"`
	} `json:"report"`
}

func mtrJSON(p *sample.Path, out []byte) error {
	if err := probekit.CheckSize(out, maxMtrJSON, "mtr run"); err != nil {
		return err
	}
	var d mtrDoc
	if err := probekit.DecodeJSON(out, &d); err != nil {
		return err
	}
	if d.Report == nil {
		return probekit.PathError("report", "missing: not mtr --json output")
	}
	if dst := d.Report.Mtr.Dst; dst != "" {
		p.Target = &dst
		if isIP(dst) {
			p.DstAddr = &dst
		}
	}
	for i, h := range d.Report.Hubs {
		at := fmt.Sprintf("report.hubs[%d]", i)
		if h.Count.v == nil || *h.Count.v != float64(int(*h.Count.v)) {
			return probekit.PathError(at+".count", "missing or not a whole number")
		}
		rtt := h.Avg.v
		if rtt == nil {
			rtt = h.Last.v
		}
		if h.Host == "" || len(h.Host) > 253 {
			return probekit.PathError(at+".host", "missing or longer than a host name")
		}
		pr := mtrProbe(h.Host, nil, h.Loss.v, rtt, asnOf(h.ASN))
		if err := addMtrProbe(p, int(*h.Count.v), pr); err != nil {
			return probekit.PathError(at, "%v", err)
		}
	}
	return nil
}
