package watchdog

import "time"

// The components the watchdog judges: evidence.component of its events. A consumer group's lag
// is ComponentLag + "/" + the group.
const (
	ComponentJob         = "flink_job"          // the job of the watched name exists, RUNNING with every task running
	ComponentRestarts    = "flink_restarts"     // the job is not restarting in a loop
	ComponentCheckpoints = "flink_checkpoints"  // the job's checkpoints complete
	ComponentLate        = "flink_late_records" // the job's windows drop no record as late
	ComponentLag         = "consumer_lag"       // a consumer group keeps up with its topics
	ComponentInflux      = "influxdb_writes"    // InfluxDB answers and holds the statistics it was sent
	ComponentSeries      = "influxdb_series"    // InfluxDB's series stay within their budget
	ComponentAgent       = "agent"              // an agent (subject: its host) publishes on schedule
	ComponentClock       = "clock_skew"         // an agent's clock is within the contract's tolerance
)

// AnySubject is the subject of a finding about the pipeline as a whole (the event's src "*").
const AnySubject = "*"

// Severities of the events (the event schema's severity).
const (
	SeverityInfo     = "info"
	SeverityWarning  = "warning"
	SeverityCritical = "critical"
)

// Finding is what a check concluded about one component (and subject) in one cycle.
type Finding struct {
	Component string
	Subject   string // the host concerned, or AnySubject
	Healthy   bool
	// Tentative marks a healthy verdict on too little history to close an alert (a watchdog just
	// restarted has not seen a restart window, a lag's looks, a statistic due): it ends no bad
	// spell, it only says nothing is wrong so far.
	Tentative bool
	Severity  string // the alert's severity when not healthy (warning when empty)
	Message   string // one line a person reads
	Evidence  map[string]any
}

// Key identifies what the finding is about across cycles.
func (f Finding) Key() string { return f.Component + "|" + f.Subject }

// Check judges one component from a cycle's observations.
type Check interface {
	Judge(o *Observations) []Finding
}

// ms is a time as epoch milliseconds for evidence (0 for the zero time).
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// seconds is a duration in seconds, to a tenth, for evidence and messages.
func seconds(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond)) / float64(time.Second)
}
