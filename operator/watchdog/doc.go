// Package watchdog watches the pipeline from outside it: agents silent past their schedule, the
// Flink job not running (or running without all its tasks), restarting in a loop or failing its
// checkpoints, consumer lag of the job or Telegraf growing, InfluxDB writes failing, and agents'
// clocks skewed beyond the contract's tolerance.
//
// Each check (one per file) judges what one cycle observed (Observations) and returns Findings:
// a component, a subject (a host or "*"), healthy or not, a message and flat evidence. A Tracker
// turns findings into the contract's pipeline_degraded (after a grace, so a blip raises nothing)
// and pipeline_recovered events, which share an episode id; on start, the episodes still open are
// rebuilt from the watchdog's own events on the events topic (Restore), so a restart neither
// raises an alert twice nor misses a recovery. Every cycle ends with a status file (Status) that
// `longhaul watchdog status` prints.
//
// The checks and the tracker are pure: unit tests drive them without a network. live.go gathers
// the observations from Flink's REST API, Kafka and InfluxDB; run.go is the loop.
package watchdog
