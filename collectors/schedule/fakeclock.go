package schedule

import (
	"sync"
	"time"
)

// FakeClock is a Clock for tests: time moves only when Advance is called, and timers due by
// then fire. WaitTimers lets a test wait until the code under test is blocked on a timer.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*fakeTimer
	changed chan struct{}
}

// NewFakeClock starts a fake clock at t.
func NewFakeClock(t time.Time) *FakeClock {
	return &FakeClock{now: t, changed: make(chan struct{}, 1)}
}

type fakeTimer struct {
	clock *FakeClock
	at    time.Time
	c     chan time.Time
}

// Now returns the fake time.
func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer makes a timer that fires when the clock is advanced past now+d.
func (f *FakeClock) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clock: f, at: f.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- f.now
	} else {
		f.timers = append(f.timers, t)
	}
	select {
	case f.changed <- struct{}{}:
	default:
	}
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, o := range f.timers {
		if o == t {
			f.timers = append(f.timers[:i], f.timers[i+1:]...)
			return true
		}
	}
	return false
}

// Advance moves the clock by d and fires every timer due.
func (f *FakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	kept := f.timers[:0]
	for _, t := range f.timers {
		if !t.at.After(f.now) {
			t.c <- f.now
		} else {
			kept = append(kept, t)
		}
	}
	f.timers = kept
}

// NextTimer returns when the earliest pending timer fires.
func (f *FakeClock) NextTimer() (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var next time.Time
	for _, t := range f.timers {
		if next.IsZero() || t.at.Before(next) {
			next = t.at
		}
	}
	return next, !next.IsZero()
}

// WaitTimers blocks until at least n timers are pending, or timeout (real time) passes; it
// reports whether they are.
func (f *FakeClock) WaitTimers(n int, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		k := len(f.timers)
		f.mu.Unlock()
		if k >= n {
			return true
		}
		select {
		case <-f.changed:
		case <-deadline.C:
			return false
		}
	}
}
