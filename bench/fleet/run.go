package main

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Clock is the simulated time: Start at the wall time Wall0, running Speed times as fast.
type Clock struct {
	Start, Wall0 time.Time
	Speed        float64
}

// Now is the simulated time now.
func (c Clock) Now() time.Time {
	return c.Start.Add(time.Duration(float64(time.Since(c.Wall0)) * c.Speed))
}

// Wall is how long to wait on the wall clock for d of simulated time.
func (c Clock) Wall(d time.Duration) time.Duration { return time.Duration(float64(d) / c.Speed) }

// Until waits until the simulated time t (or ctx ends).
func (c Clock) Until(ctx context.Context, t time.Time) bool {
	d := c.Wall(t.Sub(c.Now()))
	if d <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

// Due is one result ready to archive: its stream, its run's start and its sequence number.
type Due struct {
	Stream *Stream
	Start  time.Time
	Seq    uint64
}

// Ready is when the result can be archived: when its run has ended (pScheduler archives a
// run once it is finished; a latencybg result once its packets' span is over).
func (d Due) Ready() time.Time {
	switch d.Stream.Test {
	case "latencybg":
		return d.Start.Add(d.Stream.Every)
	case "throughput":
		return d.Start.Add(d.Stream.Duration + 5*time.Second)
	case "trace":
		return d.Start.Add(15 * time.Second)
	}
	return d.Start.Add(10 * time.Second)
}

// DueBetween is every result ready in [from, to) of the streams, in the order they are ready.
func DueBetween(streams []Stream, from, to time.Time, seq *uint64) []Due {
	var out []Due
	for i := range streams {
		s := &streams[i]
		// a run that started up to one of its spans before from may be ready after it
		for _, t := range s.Slots(from.Add(-s.Every-s.Slip-time.Minute), to) {
			d := Due{Stream: s, Start: t}
			if r := d.Ready(); !r.Before(from) && r.Before(to) {
				*seq++
				d.Seq = *seq
				out = append(out, d)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ready().Before(out[j].Ready()) })
	return out
}

// Host is one pScheduler host's archiving: its archive and up to Parallel posts at once (the
// archiver daemon's pool of plugin processes), each with its own connection.
type Host struct {
	Name     string
	Archive  Archive
	Parallel int
	clients  chan *http.Client
}

// NewHost makes the host's pool of clients.
func NewHost(name string, a Archive, parallel int, ca []byte) (*Host, error) {
	h := &Host{Name: name, Archive: a, Parallel: parallel, clients: make(chan *http.Client, parallel)}
	for range parallel {
		c, err := a.Client(ca)
		if err != nil {
			return nil, err
		}
		h.clients <- c
	}
	return h, nil
}

// Send posts one result until it is taken or the policy is spent, as pScheduler's archiver
// daemon does (the result waits its retry time while others go on); each attempt is reported.
func (h *Host) Send(ctx context.Context, clock Clock, d Due, body []byte, rec *Recorder, wg *sync.WaitGroup) {
	defer wg.Done()
	first := time.Now()
	for attempts := 0; ; attempts++ {
		c := <-h.clients
		code, msg := h.Archive.Post(c, body)
		h.clients <- c
		if code >= 200 && code <= 299 {
			rec.Done(d, h.Name, first, attempts+1, code, "")
			return
		}
		wait, again := h.Archive.RetryAfter(attempts)
		if !again {
			rec.Done(d, h.Name, first, attempts+1, code, msg)
			return
		}
		rec.Retry(code)
		select {
		case <-time.After(clock.Wall(wait)):
		case <-ctx.Done():
			rec.Done(d, h.Name, first, attempts+1, code, "the run ended before the retry")
			return
		}
	}
}

// Encode is the result's JSON as the plugin posts it (json['result'] of its input).
func Encode(d Due, net Network) ([]byte, error) {
	return json.Marshal(Result(*d.Stream, d.Start, d.Seq, net))
}
