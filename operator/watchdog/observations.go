package watchdog

import (
	"time"

	"longhaul/operator/flink"
)

// Observations are what one cycle saw of the pipeline; each check judges its part. Live ones are
// gathered by live.go; tests make their own.
type Observations struct {
	Now    time.Time
	Flink  FlinkObs
	Lags   []GroupLag
	Influx InfluxObs
	Agents []AgentView
	// Untracked counts records of hosts beyond the agent book's cap.
	Untracked int64
}

// FlinkObs is the watched job as Flink's REST API shows it.
type FlinkObs struct {
	Err  error            // the REST API could not be read (the JobManager is down or unreachable)
	Name string           // the watched job's name
	Job  *flink.JobStatus // the newest job of that name: the running one if any, else the last ended (nil: none)

	Restarts    int64 // numRestarts of Job
	RestartsErr error

	Checkpoints    *flink.Checkpoints // of Job (nil: not read)
	CheckpointsErr error

	// Late is the sum of Job's numLateRecordsDropped (its windows' records that came behind the
	// watermark) since its tasks started; LateKnown is false until its tasks report the metric.
	Late      int64
	LateKnown bool
	LateErr   error
}

// GroupLag is one consumer group's lag: end offsets minus committed offsets over its partitions.
type GroupLag struct {
	Group      string
	Err        error // the lag could not be read
	Lag        int64 // sum over the partitions with a committed offset
	Partitions int   // partitions with a committed offset (0: the group has committed nothing)
	State      string
}

// InfluxObs is what the watchdog saw of InfluxDB and of the statistics due in it.
type InfluxObs struct {
	PingErr error // InfluxDB does not answer (or refuses the watchdog's user)

	// Due is the newest statistic (its ts) on the stats topic that arrived at least the check's
	// delay ago, so that it should be in InfluxDB by now (zero: none seen yet).
	Due time.Time
	// Stored says whether InfluxDB holds a statistic at Due or later (read only when Due is set).
	Stored   bool
	QueryErr error
	Newest   time.Time // InfluxDB's newest statistic (zero: none, or not read)

	Series    int64 // the database's series, InfluxDB's estimate (read whenever it answers)
	SeriesErr error
}
