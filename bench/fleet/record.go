package main

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Recorder counts what became of the results and writes one line per result archived.
type Recorder struct {
	mu        sync.Mutex
	out       *bufio.Writer
	Due       map[string]int // results ready, by test type
	Silenced  int            // not posted: their host's pScheduler was down
	Taken     int            // answered 2xx
	GaveUp    int            // the retry policy spent
	Final     map[string]int // last answer by status ("0": no connection)
	Retries   map[string]int // failed attempts that were retried, by status
	latencies []float64      // first attempt to taken, seconds
}

// Outcome is one result's line: the link, its run's start, when it was ready (simulated) and
// when the archiver first posted it and was done with it (wall clock, ms).
type Outcome struct {
	Host     string `json:"host"`
	Test     string `json:"test"`
	Src      string `json:"src"`
	Dst      string `json:"dst"`
	StartMs  int64  `json:"start_ms"`
	ReadyMs  int64  `json:"ready_ms"`
	PostedMs int64  `json:"posted_ms"`
	DoneMs   int64  `json:"done_ms"`
	Attempts int    `json:"attempts"`
	Code     int    `json:"code"`
	Error    string `json:"error,omitempty"`
}

func NewRecorder(w io.Writer) *Recorder {
	r := &Recorder{Due: map[string]int{}, Final: map[string]int{}, Retries: map[string]int{}}
	if w != nil {
		r.out = bufio.NewWriterSize(w, 1<<16)
	}
	return r
}

func (r *Recorder) Ready(test string) {
	r.mu.Lock()
	r.Due[test]++
	r.mu.Unlock()
}

func (r *Recorder) Silence() {
	r.mu.Lock()
	r.Silenced++
	r.mu.Unlock()
}

func (r *Recorder) Retry(code int) {
	r.mu.Lock()
	r.Retries[strconv.Itoa(code)]++
	r.mu.Unlock()
}

// Done records a result the archiver is done with: taken, or given up.
func (r *Recorder) Done(d Due, host string, first time.Time, attempts, code int, msg string) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Final[strconv.Itoa(code)]++
	if code >= 200 && code <= 299 {
		r.Taken++
		r.latencies = append(r.latencies, now.Sub(first).Seconds())
	} else {
		r.GaveUp++
	}
	if r.out != nil {
		b, _ := json.Marshal(Outcome{Host: host, Test: d.Stream.Test, Src: d.Stream.Src, Dst: d.Stream.Dst,
			StartMs: d.Start.UnixMilli(), ReadyMs: d.Ready().UnixMilli(), PostedMs: first.UnixMilli(),
			DoneMs: now.UnixMilli(), Attempts: attempts, Code: code, Error: msg})
		r.out.Write(append(b, '\n'))
	}
}

// Summary is the run's figures.
func (r *Recorder) Summary() map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.out != nil {
		r.out.Flush()
	}
	lat := slices.Clone(r.latencies)
	slices.Sort(lat)
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(int(lat[min(int(p*float64(len(lat))), len(lat)-1)]*1000)) / 1000
	}
	due := 0
	for _, n := range r.Due {
		due += n
	}
	return map[string]any{"results_due": due, "due_by_test": r.Due, "silenced": r.Silenced,
		"taken": r.Taken, "gave_up": r.GaveUp, "final_status": r.Final, "retried_status": r.Retries,
		"post_to_taken_s": map[string]float64{"p50": q(0.5), "p99": q(0.99), "max": q(1)}}
}
