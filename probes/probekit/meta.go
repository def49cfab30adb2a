package probekit

import (
	"fmt"
	"regexp"
	"time"
)

// Meta is what a parser needs besides the tool's output: the link, the probe, the run and,
// for outputs that carry no clock (traceroute, ping, iperf2 text, failed iperf3 runs), when the
// run started.
type Meta struct {
	Src, Dst string
	ProbeID  string
	RunID    string
	Target   string    // address the tool was pointed at, when known
	Start    time.Time // run start; zero when unknown
}

// hostRE is the schemas' pattern for src and dst.
var hostRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

// Epoch-millisecond bounds of the schemas' ts (1973 … 2286).
const (
	MinEpochMS = 100000000000
	MaxEpochMS = 9999999999999
)

// Check reports a Meta that would make samples invalid, naming the field.
func (m Meta) Check() error {
	for _, f := range []struct{ name, v string }{{"src", m.Src}, {"dst", m.Dst}} {
		if !ValidHost(f.v) {
			return fmt.Errorf("%s: %q is not a valid host name (letters, digits and . _ : - ; starting with a letter or digit)", f.name, f.v)
		}
	}
	if m.ProbeID == "" || len(m.ProbeID) > 200 {
		return fmt.Errorf("probe_id: must be 1-200 characters")
	}
	if m.RunID == "" || len(m.RunID) > 200 {
		return fmt.Errorf("run_id: must be 1-200 characters")
	}
	return nil
}

// ValidHost says whether s matches the schemas' host pattern.
func ValidHost(s string) bool { return len(s) <= 253 && hostRE.MatchString(s) }

// StartMS is the run start in epoch milliseconds, or an error naming what is missing.
func (m Meta) StartMS() (int64, error) {
	if m.Start.IsZero() {
		return 0, fmt.Errorf("the output carries no start time: give one (--ts EPOCH_MS)")
	}
	return CheckEpochMS(m.Start.UnixMilli())
}

// CheckEpochMS refuses times the schemas would refuse (and seconds passed as milliseconds).
func CheckEpochMS(ms int64) (int64, error) {
	if ms < MinEpochMS || ms > MaxEpochMS {
		return 0, fmt.Errorf("time %d is not epoch milliseconds between 1973 and 2286", ms)
	}
	return ms, nil
}

// OffsetMS adds an offset in seconds to an epoch-millisecond time, rounded to the millisecond.
func OffsetMS(startMS int64, seconds float64) (int64, error) {
	if seconds < 0 || seconds > 1e7 { // about 115 days: longer than any run
		return 0, fmt.Errorf("offset %g s is out of range", seconds)
	}
	return CheckEpochMS(startMS + int64(seconds*1000+0.5))
}
