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
	// AdmitQueuePerSlot is how many posts may wait per slot (max_concurrent) when Limits.MaxWaiting
	// is not given: what waits holds a connection and its headers, not its body, which is read only
	// once it has a slot. AdmitWait bounds the wait; this only bounds the goroutines.
	AdmitQueuePerSlot = 1024
)

// gate admits at most cap(slots) posts at once and lets at most maxWaiting others wait.
type gate struct {
	slots      chan struct{}
	waiting    atomic.Int64
	maxWaiting int64
	wait       time.Duration
}

// newGate has slots slots and lets maxWaiting posts wait for them (slots × AdmitQueuePerSlot when
// not positive).
func newGate(slots, maxWaiting int, wait time.Duration) *gate {
	slots = max(slots, 1)
	if maxWaiting <= 0 {
		maxWaiting = slots * AdmitQueuePerSlot
	}
	return &gate{slots: make(chan struct{}, slots), maxWaiting: int64(maxWaiting), wait: wait}
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
