package watchdog

import "time"

// Thresholds are every check's limits; DefaultThresholds gives the defaults `longhaul watchdog`
// documents.
type Thresholds struct {
	RestartLimit        int64         // restarts within RestartWindow that make a loop
	RestartWindow       time.Duration //
	CheckpointIntervals float64       // checkpoint intervals without a completion that are too many
	LateWindow          time.Duration // a record dropped as late keeps the warning this long
	LagMin              int64         // lag (records) a group may keep without being judged
	LagCycles           int           // looks over which a lag above LagMin must not shrink
	InfluxDelay         time.Duration // how long a statistic may take from the stats topic to InfluxDB
	SeriesBudget        int64         // InfluxDB series the deployment was sized for
	SilenceFactor       float64       // an agent is silent after this many usual gaps...
	SilenceFloor        time.Duration // ...and never sooner than this
	SilencePatience     time.Duration // an agent whose schedule is not known yet (fewer than 3 gaps)
	SkewTolerance       time.Duration // the contract's clock_skew_tolerance_s
	SkewSamples         int           // records with a sent time before a host's skew is judged
}

// DefaultThresholds are the defaults: a TaskManager lost and replaced is one restart, not a loop;
// the job checkpoints every 30 s, so 10 intervals is 5 minutes (a failed one is reported at once,
// a hung one fails at Flink's 10-minute timeout); an idle consumer of a
// transactionally written topic keeps a lag of one marker per partition, far under 100; Telegraf
// writes a statistic within seconds; agents probe every minute (rtt) or more, so three usual gaps
// and at least two minutes.
func DefaultThresholds() Thresholds {
	return Thresholds{
		RestartLimit: 3, RestartWindow: 10 * time.Minute,
		CheckpointIntervals: 10,
		LateWindow:          10 * time.Minute,
		LagMin:              100, LagCycles: 8,
		InfluxDelay: 3 * time.Minute, SeriesBudget: DefaultSeriesBudget,
		SilenceFactor: 3, SilenceFloor: 2 * time.Minute, SilencePatience: 15 * time.Minute,
		SkewTolerance: DefaultSkewTolerance, SkewSamples: 5,
	}
}

// DefaultSeriesBudget is InfluxDB 1.8's own default limit on a database's series, where the
// sizing guide (docs/kubernetes-sizing.md) asks for the tsi1 index: about 53,000 links at 18.6
// series each, 1,800 hosts in WLCG's meshes of 30.
const DefaultSeriesBudget = 1_000_000

// Silence is the agents' silence check of these thresholds.
func (t Thresholds) Silence() SilenceCheck {
	return SilenceCheck{Factor: t.SilenceFactor, Floor: t.SilenceFloor, MinGaps: 3, Patience: t.SilencePatience}
}

// Checks are every check, with these thresholds, in the order the status lists them.
func (t Thresholds) Checks() []Check {
	return []Check{
		JobCheck{},
		&RestartCheck{Window: t.RestartWindow, Limit: t.RestartLimit},
		&CheckpointCheck{Intervals: t.CheckpointIntervals},
		&LateCheck{Window: t.LateWindow},
		&LagCheck{Min: t.LagMin, Cycles: t.LagCycles},
		InfluxCheck{Delay: t.InfluxDelay},
		SeriesCheck{Budget: t.SeriesBudget},
		t.Silence(),
		SkewCheck{Tolerance: t.SkewTolerance, MinSamples: t.SkewSamples},
	}
}
