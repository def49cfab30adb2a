package watchdog

import (
	"fmt"
)

// SeriesCheck: InfluxDB's series stay within the budget the deployment was sized for. Every link
// is about 19 series (its kinds' 1m, 1h and 1d statistics, a path's hops by TTL); InfluxDB 1.8's
// own default refuses every write past a million series in a database, which the stack lifts
// (max-series-per-database = 0, the tsi1 index) and sizes instead (docs/kubernetes-sizing.md).
// So a fleet grown past its sizing, or an identity inventing links beyond what the job's cap on
// links per src stops, shows here before memory or disk run out. The count is InfluxDB's own
// estimate over every retention policy (SHOW SERIES CARDINALITY: a sketch, cheap to read).
// Its evidence keys are series_budget and series: an evidence key is one InfluxDB field
// (evidence_<key>) for every event kind, so it keeps one type everywhere (the job's "budget" of
// a probe_request_unserved is a word; a number under that key refused the job's events after it).
type SeriesCheck struct {
	Budget int64
}

// Judge implements Check.
func (c SeriesCheck) Judge(o *Observations) []Finding {
	in := o.Influx
	f := Finding{Component: ComponentSeries, Subject: AnySubject, Severity: SeverityWarning,
		Evidence: map[string]any{"series_budget": c.Budget}}
	switch {
	case in.PingErr != nil: // influxdb_writes says so
		f.Healthy, f.Tentative = true, true
		f.Message = "InfluxDB does not answer: its series are not counted"
	case in.SeriesErr != nil:
		f.Message = fmt.Sprintf("InfluxDB's series cannot be counted: %v", in.SeriesErr)
		f.Evidence["error"] = in.SeriesErr
	default:
		f.Evidence["series"] = in.Series
		share := float64(in.Series) / float64(c.Budget)
		f.Healthy = in.Series < c.Budget
		if f.Healthy {
			f.Message = fmt.Sprintf("InfluxDB holds %d series, %.0f %% of the budget (%d)", in.Series, 100*share, c.Budget)
		} else {
			f.Message = fmt.Sprintf("InfluxDB holds %d series, over the budget of %d (--series-budget) it was sized for: "+
				"more links than planned, or one identity's invented ones (SHOW SERIES EXACT CARDINALITY names the measurement)",
				in.Series, c.Budget)
		}
	}
	return []Finding{f}
}
