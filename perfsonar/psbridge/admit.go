package psbridge

import (
	"context"
	"sync/atomic"
	"time"
)

// A post waits for a conversion slot instead of being turned away at once. pScheduler's HTTP
// archiver ignores Retry-After: a refused post is sent again after its retry policy's wait (a
// minute in the usual policies), or never without one, and a result that waited twice arrives
// behind the job's watermark. At the WLCG shape (250 hosts, 127 results/s) an immediate 429 hit
// 3.3 % of the posts. The wait is bounded under the archiver's default timeout (PT30S), and so
// is the queue: beyond it, or after the wait, the post is told to come back (429).
const (
	// AdmitWait is how long a post waits for a slot.
	AdmitWait = 20 * time.Second
	// AdmitQueuePerSlot is how many posts may wait per slot (max_concurrent): what waits holds a
	// connection and its headers, not its body, which is read only once it has a slot, and the
	// connection is the archiver's kept-alive one anyway. AdmitWait bounds the wait; this only
	// bounds the goroutines. At 64, 4 slots let 256 wait: half a second of 1,000 hosts' posts
	// (529 results/s), and 3.8 % of them were answered 429 while the bridge took them at 0.44
	// cores (issue 45, docs/benchmarks.md, The knee). 1,024 lets 8 s of them wait.
	AdmitQueuePerSlot = 1024
)

// gate admits at most cap(slots) posts at once and lets at most maxWaiting others wait.
type gate struct {
	slots      chan struct{}
	waiting    atomic.Int64
	maxWaiting int64
	wait       time.Duration
}

func newGate(slots int, wait time.Duration) *gate {
	slots = max(slots, 1)
	return &gate{slots: make(chan struct{}, slots), maxWaiting: int64(slots * AdmitQueuePerSlot), wait: wait}
}

// enter takes a slot, waiting up to g.wait (or until ctx ends) when all are taken. release gives
// the slot back; it is nil when the post got none: queueFull says the queue had no place for it
// (turned away at once), else the wait ran out or its client left.
func (g *gate) enter(ctx context.Context) (release func(), queueFull bool) {
	select {
	case g.slots <- struct{}{}:
		return g.leave, false
	default:
	}
	if g.waiting.Add(1) > g.maxWaiting {
		g.waiting.Add(-1)
		return nil, true
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.leave, false
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, false
}

func (g *gate) leave() { <-g.slots }
