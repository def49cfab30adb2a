package watchdog

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// AgentBook keeps, per agent host (the src of its samples), when its records last reached the
// broker, the gaps between its bursts of records and the offsets of its clock from the broker's.
// It is bounded by who speaks: at most Max hosts first heard of from topics anyone with the shared
// writers' credentials can fill with any name (the shared raw topics, the history topics), and
// at most Max more heard from their own identity (an agent's own topic, a bridge's listed host:
// as many as the admin made). Records of further hosts are counted, not kept, so a flood of forged
// names on a shared topic cannot crowd out the hosts that speak for themselves. Safe for
// concurrent use: the consumer records, the cycle reads.
type AgentBook struct {
	Max int

	mu        sync.Mutex
	hosts     map[string]*agentTrack
	owned     int   // hosts of the book heard from their own identity
	untracked int64 // records of hosts beyond Max
}

// BurstGap is how far apart two records must arrive to count as a gap: an agent publishes a
// run's samples together, and that is one arrival.
const BurstGap = time.Second

const (
	keepGaps  = 16 // recent gaps per host: the usual one is their median
	keepSkews = 64 // recent clock offsets per host: the skew is their median
)

type agentTrack struct {
	own        bool          // heard from its own identity (RecordOwn): counted apart from the rest
	remembered time.Duration // the silence limit of an alert open before a restart
	firstSeen  time.Time
	lastSeen   time.Time
	records    int64
	gaps       []time.Duration // the last keepGaps, oldest first
	skews      []int64         // ms, the last keepSkews, oldest first
}

// NewAgentBook is an empty book of at most max hosts.
func NewAgentBook(max int) *AgentBook {
	return &AgentBook{Max: max, hosts: map[string]*agentTrack{}}
}

// Record notes a record of host that reached the broker at broker, on a topic any shared writer
// may fill with any name (see AgentBook); sentMs is the agent's own clock when it sent it (the
// record's sent header), hasSent false when the record has none.
func (b *AgentBook) Record(host string, broker time.Time, sentMs int64, hasSent bool) {
	b.record(host, false, broker, sentMs, hasSent)
}

// RecordOwn notes a record of host from its own identity: an agent's own topic of its src, a
// bridge's own topic of a host of its central list.
func (b *AgentBook) RecordOwn(host string, broker time.Time, sentMs int64, hasSent bool) {
	b.record(host, true, broker, sentMs, hasSent)
}

func (b *AgentBook) record(host string, own bool, broker time.Time, sentMs int64, hasSent bool) {
	if host == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.track(host, own, broker)
	if t == nil {
		b.untracked++
		return
	}
	if broker.Before(t.firstSeen) {
		t.firstSeen = broker
	}
	t.records++
	if !t.lastSeen.IsZero() && broker.Sub(t.lastSeen) >= BurstGap {
		t.gaps = keepLast(append(t.gaps, broker.Sub(t.lastSeen)), keepGaps)
	}
	if broker.After(t.lastSeen) {
		t.lastSeen = broker
	}
	if hasSent {
		t.skews = keepLast(append(t.skews, sentMs-broker.UnixMilli()), keepSkews)
	}
}

// track is host's entry, made when its side of the book has room (nil when not); a host first
// heard from a shared topic moves to the own side when its own identity speaks, room allowing.
func (b *AgentBook) track(host string, own bool, first time.Time) *agentTrack {
	t := b.hosts[host]
	if t != nil {
		if own && !t.own && b.owned < b.Max {
			t.own = true
			b.owned++
		}
		return t
	}
	if own && b.owned >= b.Max || !own && len(b.hosts)-b.owned >= b.Max {
		return nil
	}
	t = &agentTrack{own: own, firstSeen: first}
	b.hosts[host] = t
	if own {
		b.owned++
	}
	return t
}

// Seed carries over a restart what an open silence alert knew of host: when it was last seen
// and the silence limit it was judged by. The host stays watched even if its last record is older
// than what the watchdog reads back, and keeps that limit until its schedule is learned again, so
// a restart does not take a few records of a silent host for a schedule not known yet.
func (b *AgentBook) Seed(host string, lastSeen time.Time, limit time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.track(host, false, lastSeen)
	if t == nil {
		return
	}
	if lastSeen.After(t.lastSeen) {
		t.lastSeen = lastSeen
	}
	t.remembered = limit
}

// AgentView is what the book knows of one host.
type AgentView struct {
	Host     string        `json:"host"`
	Own      bool          `json:"own_identity"` // heard from its own identity (RecordOwn)
	LastSeen time.Time     `json:"-"`
	Records  int64         `json:"records"`
	Gaps     int           `json:"gaps"` // gaps observed (up to 16 kept)
	UsualGap time.Duration `json:"-"`    // median of the kept gaps (0: none yet)
	MaxGap   time.Duration `json:"-"`    // longest of the kept gaps
	Span     time.Duration `json:"-"`    // from its first record seen to its last
	// Remembered is the silence limit of its alert open before the watchdog restarted (0: none).
	Remembered time.Duration `json:"-"`
	Skews      int           `json:"skew_n"` // clock offsets observed (up to 64 kept)
	Skew       time.Duration `json:"-"`      // median of sent time − broker time (valid when Skews > 0)
}

// Views lists every host, by name, and how many records came from hosts beyond Max.
func (b *AgentBook) Views() ([]AgentView, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]AgentView, 0, len(b.hosts))
	for h, t := range b.hosts {
		v := AgentView{Host: h, Own: t.own, LastSeen: t.lastSeen, Records: t.records, Gaps: len(t.gaps), Skews: len(t.skews),
			Span: t.lastSeen.Sub(t.firstSeen), Remembered: t.remembered}
		if len(t.gaps) > 0 {
			v.UsualGap = median(t.gaps)
			v.MaxGap = slices.Max(t.gaps)
		}
		if len(t.skews) > 0 {
			v.Skew = time.Duration(median(t.skews)) * time.Millisecond
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host < out[j].Host })
	return out, b.untracked
}

func keepLast[T any](s []T, n int) []T {
	if len(s) > n {
		return append(s[:0:0], s[len(s)-n:]...)
	}
	return s
}

// median of a copy of v (the lower middle for an even count).
func median[T int64 | time.Duration](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
