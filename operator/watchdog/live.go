package watchdog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaadmin"
	"longhaul/internal/kafkaconn"
	"longhaul/operator/flink"
	"longhaul/operator/influx"
)

// Live gathers Observations from the running pipeline: Flink's REST API, the consumer groups'
// offsets, InfluxDB, and what the watchdog's own consumer (Follow) saw on the raw and stats
// topics.
type Live struct {
	Flink   *flink.Client
	Job     string
	Admin   *kadm.Client
	Groups  []string
	Influx  *influx.Client
	Book    *AgentBook
	Tip     *StatsTip
	Silence SilenceCheck  // for the agents' limits in the status
	Delay   time.Duration // how long a statistic may take from the stats topic into InfluxDB
	Timeout time.Duration // per source

	lateJob   string            // the job lateWhere is of
	lateWhere flink.LateMetrics // where that job counts late records
}

// Observe gathers one cycle's observations; a source that fails is recorded in them, as the
// checks judge it. Only a refusal of the watchdog's own Kafka credential is returned: no
// observation of Kafka means anything until someone fixes it.
func (l *Live) Observe(ctx context.Context, now time.Time) (*Observations, error) {
	o := &Observations{Now: now}
	o.Flink = l.flinkObs(ctx)
	lags, err := l.lags(ctx)
	if err != nil {
		return nil, err
	}
	o.Lags = lags
	o.Influx = l.influxObs(ctx, now)
	o.Agents, o.Untracked = l.Book.Views()
	return o, nil
}

func (l *Live) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, l.Timeout)
}

func (l *Live) flinkObs(ctx context.Context) FlinkObs {
	ctx, cancel := l.bounded(ctx)
	defer cancel()
	obs := FlinkObs{Name: l.Job}
	jobs, err := l.Flink.Overview(ctx)
	if err != nil {
		obs.Err = err
		return obs
	}
	obs.Job = PickJob(jobs, l.Job)
	if obs.Job == nil || flink.Terminal(obs.Job.State) {
		return obs
	}
	obs.Restarts, obs.RestartsErr = l.Flink.Restarts(ctx, obs.Job.ID)
	cp, err := l.Flink.Checkpoints(ctx, obs.Job.ID)
	if err != nil {
		obs.CheckpointsErr = err
	} else {
		obs.Checkpoints = &cp
	}
	obs.Late, obs.LateKnown, obs.LateErr = l.late(ctx, obs.Job.ID)
	return obs
}

// late reads the job's late records where its windows count them, found once per job (again
// while none has reported: a job's metrics appear once its tasks run).
func (l *Live) late(ctx context.Context, job string) (int64, bool, error) {
	if l.lateJob != job || len(l.lateWhere) == 0 {
		where, err := l.Flink.FindLateMetrics(ctx, job)
		if err != nil {
			return 0, false, err
		}
		l.lateJob, l.lateWhere = job, where
	}
	if len(l.lateWhere) == 0 {
		return 0, false, nil
	}
	n, err := l.Flink.LateDropped(ctx, job, l.lateWhere)
	if err != nil {
		l.lateWhere = nil // a vertex gone (the job replaced): look again next cycle
		return 0, false, err
	}
	return n, true, nil
}

// lags reads every watched group's lag: end offsets minus committed offsets, over the partitions
// it has committed.
func (l *Live) lags(ctx context.Context) ([]GroupLag, error) {
	if len(l.Groups) == 0 {
		return nil, nil // kadm's Lag of no group is every group's
	}
	ctx, cancel := l.bounded(ctx)
	defer cancel()
	// a copy: kadm's Lag reuses the slice it is given for its own bookkeeping
	described, err := l.Admin.Lag(ctx, slices.Clone(l.Groups)...)
	if reason, ok := kafkaconn.Refusal(err); ok {
		return nil, fmt.Errorf("kafka: consumer groups' lag: %s", reason)
	}
	out := make([]GroupLag, 0, len(l.Groups))
	for _, g := range l.Groups {
		gl := GroupLag{Group: g, Err: err}
		if err == nil {
			gl = groupLag(g, described[g])
		}
		out = append(out, gl)
	}
	return out, nil
}

func groupLag(name string, d kadm.DescribedGroupLag) GroupLag {
	gl := GroupLag{Group: name, State: d.State}
	if d.Group == "" {
		gl.Err = errors.New("not in the answer")
		return gl
	}
	if err := d.Error(); errors.Is(err, kerr.GroupIDNotFound) {
		return gl // a group that never committed (a job without input yet): nothing behind
	} else if err != nil {
		gl.Err = err
		return gl
	}
	for _, m := range d.Lag.Sorted() {
		if m.Err != nil || m.Commit.At < 0 {
			continue
		}
		gl.Lag += m.Lag
		gl.Partitions++
	}
	return gl
}

func (l *Live) influxObs(ctx context.Context, now time.Time) InfluxObs {
	ctx, cancel := l.bounded(ctx)
	defer cancel()
	var obs InfluxObs
	if obs.PingErr = l.Influx.Ping(ctx); obs.PingErr != nil {
		return obs
	}
	obs.Series, obs.SeriesErr = l.seriesCount(ctx)
	obs.Due = l.Tip.Due(now, l.Delay)
	if obs.Due.IsZero() {
		return obs
	}
	n, err := l.pointsSince(ctx, obs.Due)
	if err != nil {
		obs.QueryErr = err
		return obs
	}
	obs.Stored = n
	if !n {
		obs.Newest, _ = l.newest(ctx, obs.Due.Add(-10*time.Minute))
	}
	return obs
}

// pointsSince says whether the database's default retention policy (raw: the 1-minute
// statistics) holds a 1-minute statistic at t or later; it reads at most one point. The collapse
// detector's baselines in the same policy do not count: one goes out as its run is judged, ahead
// of the minute that holds the run, and would pass for that minute before it is written.
func (l *Live) pointsSince(ctx context.Context, t time.Time) (bool, error) {
	series, err := l.Influx.Query(ctx, fmt.Sprintf(`SELECT "samples" FROM "link_stats" WHERE "window" = '1m' AND time >= %dms LIMIT 1`, t.UnixMilli()))
	return len(series) > 0 && len(series[0].Values) > 0, err
}

// seriesCount is InfluxDB's estimate of the database's series, over every retention policy.
func (l *Live) seriesCount(ctx context.Context) (int64, error) {
	series, err := l.Influx.Query(ctx, "SHOW SERIES CARDINALITY")
	if err != nil {
		return 0, err
	}
	if len(series) == 0 || len(series[0].Values) == 0 || len(series[0].Values[0]) == 0 { // an empty database
		return 0, nil
	}
	n, ok := influx.Float(series[0].Values[0][0])
	if !ok {
		return 0, fmt.Errorf("SHOW SERIES CARDINALITY: %v is no number", series[0].Values[0][0])
	}
	return int64(n), nil
}

// newest is the time of the newest 1-minute statistic since t (zero when none).
func (l *Live) newest(ctx context.Context, since time.Time) (time.Time, error) {
	series, err := l.Influx.Query(ctx, fmt.Sprintf(`SELECT last("samples") FROM "link_stats" WHERE "window" = '1m' AND time >= %dms`, since.UnixMilli()))
	if err != nil || len(series) == 0 || len(series[0].Values) == 0 {
		return time.Time{}, err
	}
	return time.UnixMilli(series[0].Millis(series[0].Values[0])), nil
}

// Follow consumes the raw topics and the stats topic with cl (assigned partitions, no group)
// until ctx ends, noting each agent's records in book and each 1-minute statistic in tip. It
// returns early only when Kafka refuses the watchdog (credential or ACL: kafkaconn.Follow).
func Follow(ctx context.Context, cl *kgo.Client, book *AgentBook, tip *StatsTip, lists *kafkaadmin.BridgeLists) error {
	return kafkaconn.Follow(ctx, cl, kafkaconn.FollowOptions{}, func(rs []*kgo.Record) error {
		for _, r := range rs {
			note(r, book, tip, lists)
		}
		return nil
	})
}

// FollowTopics are the patterns of the topics Follow reads (consumed with kgo.ConsumeRegex): every
// raw topic with the agents' and bridges' own (contract.RawTopicPattern), the stats topic, and the
// bridges' host lists (their changes: ReadBridgeLists reads what was there at the start).
func FollowTopics() []string {
	out := make([]string, 0, len(contract.RawTopics)+2)
	for _, t := range contract.RawTopics {
		out = append(out, contract.RawTopicPattern(t))
	}
	return append(out, "^"+regexp.QuoteMeta(contract.TopicStats)+"$", "^"+regexp.QuoteMeta(contract.TopicBridgeHosts)+"$")
}

// note files one record: a raw sample under its agent, a 1-minute statistic in the tip, a bridge's
// host list in lists.
func note(r *kgo.Record, book *AgentBook, tip *StatsTip, lists *kafkaadmin.BridgeLists) {
	if r.Topic == contract.TopicBridgeHosts {
		_ = lists.Apply(r.Key, r.Value) // the admin's alone to write; a bad one changes nothing
		return
	}
	if r.Topic == contract.TopicStats {
		var s struct {
			Window string `json:"window"`
			TS     int64  `json:"ts"`
		}
		if json.Unmarshal(r.Value, &s) == nil && s.Window == "1m" && s.TS > 0 {
			tip.Record(r.Timestamp, time.UnixMilli(s.TS))
		}
		return
	}
	src := SampleSource(r.Key, r.Value)
	if contract.ForeignSrc(r.Topic, src) != "" || !lists.Admits(r.Topic, src) {
		return // another site's src on an agent's or a bridge's own topic: no sign of its life
	}
	sent, ok := SentMs(r.Headers)
	if w, _ := contract.WriterOf(r.Topic); w != "" {
		book.RecordOwn(src, r.Timestamp, sent, ok) // its own agent's topic, or a bridge that lists it
		return
	}
	book.Record(src, r.Timestamp, sent, ok)
}

// SampleSource is the agent host of a raw sample: its key's src ("src|dst", the key every agent
// sets), else the value's src field.
func SampleSource(key, value []byte) string {
	if i := bytes.IndexByte(key, '|'); i > 0 {
		return string(key[:i])
	}
	var s struct {
		Src string `json:"src"`
	}
	_ = json.Unmarshal(value, &s)
	return s.Src
}

// SentMs reads the contract's sent_ms header: the agent's clock when it produced the record.
func SentMs(headers []kgo.RecordHeader) (int64, bool) {
	for _, h := range headers {
		if h.Key == contract.HeaderSentMs {
			n, err := strconv.ParseInt(string(h.Value), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
