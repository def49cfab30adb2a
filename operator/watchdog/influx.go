package watchdog

import (
	"fmt"
	"time"
)

// InfluxCheck: InfluxDB answers, and holds the statistics Telegraf was given. The newest
// statistic on the stats topic that arrived at least Delay ago (Observations.Influx.Due) must be
// in InfluxDB by now: Telegraf writes within seconds (docs/benchmarks.md), and commits its offsets
// only after a write, so writes that fail also show as its group's lag growing (LagCheck).
type InfluxCheck struct {
	Delay time.Duration
}

// Judge implements Check.
func (c InfluxCheck) Judge(o *Observations) []Finding {
	in := o.Influx
	f := Finding{Component: ComponentInflux, Subject: AnySubject, Severity: SeverityCritical, Evidence: map[string]any{}}
	if !in.Newest.IsZero() {
		f.Evidence["newest_ms"] = ms(in.Newest)
	}
	switch {
	case in.PingErr != nil:
		f.Message = fmt.Sprintf("InfluxDB does not answer: %v", in.PingErr)
		f.Evidence["error"] = in.PingErr
	case in.Due.IsZero():
		f.Healthy, f.Tentative = true, true
		f.Message = "InfluxDB answers (no statistic due yet to compare)"
	case in.QueryErr != nil:
		f.Message = fmt.Sprintf("InfluxDB answers but cannot be queried: %v", in.QueryErr)
		f.Evidence["error"] = in.QueryErr
	default:
		f.Evidence["due_ms"] = ms(in.Due)
		f.Healthy = in.Stored
		if f.Healthy {
			f.Message = fmt.Sprintf("InfluxDB holds the statistics of %s", in.Due.UTC().Format(time.TimeOnly))
		} else {
			behind := "none stored yet"
			if !in.Newest.IsZero() {
				behind = fmt.Sprintf("its newest is %s older", in.Due.Sub(in.Newest).Round(time.Second))
			}
			f.Message = fmt.Sprintf("InfluxDB lacks the statistics of %s, on the stats topic for over %s (%s): writes failing",
				in.Due.UTC().Format(time.TimeOnly), c.Delay, behind)
		}
	}
	return []Finding{f}
}
