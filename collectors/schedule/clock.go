// Package schedule runs every (probe, target) pair of the config at its interval, with a
// random slip, the way pScheduler classes its tests: exclusive probes (throughput) never run
// two at once from this host; background probes (trace, rtt, host) run side by side up to a
// bound. A run that cannot start in its slot is reported, never silently dropped. Time and
// randomness are injected so tests drive it deterministically.
package schedule

import "time"

// Clock is the scheduler's source of time.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer fires once on C.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// NewTimer is time.NewTimer.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop() bool          { return t.t.Stop() }
