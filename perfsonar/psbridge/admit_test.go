package psbridge

import (
	"context"
	"testing"
	"time"
)

// The queue is what the caller gives (the bridge gives its connection limit: a waiting post holds
// only its connection), else AdmitQueuePerSlot for each slot.
func TestTheAdmissionQueueIsWhatTheCallerGives(t *testing.T) {
	for _, c := range []struct{ slots, waiting, want int }{
		{4, 0, 4 * AdmitQueuePerSlot},
		{4, -1, 4 * AdmitQueuePerSlot},
		{0, 0, AdmitQueuePerSlot},
		{4, 19488, 19488},
	} {
		if got := newGate(c.slots, c.waiting, time.Second).maxWaiting; got != int64(c.want) {
			t.Errorf("newGate(%d, %d): %d may wait, want %d", c.slots, c.waiting, got, c.want)
		}
	}
}

// With its one slot taken, a gate of two places lets two posts wait, and turns the third away at
// once with the queue full; a waiting post gets the slot when it is given back.
func TestAGateLetsItsQueueWaitAndTurnsAwayTheRest(t *testing.T) {
	g := newGate(1, 2, time.Hour)
	release, _ := g.enter(context.Background())
	if release == nil {
		t.Fatal("an empty gate gave no slot")
	}
	got := make(chan func(), 2)
	for range 2 {
		go func() { r, _ := g.enter(context.Background()); got <- r }()
	}
	for g.waiting.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	if r, full := g.enter(context.Background()); r != nil || !full {
		t.Fatalf("a third waiting post: slot %v, queue full %v", r != nil, full)
	}
	release()
	next := <-got
	if next == nil {
		t.Fatal("a waiting post got no slot when it was given back")
	}
	next()
	if last := <-got; last == nil {
		t.Fatal("the second waiting post got no slot")
	} else {
		last()
	}
}
