package psbridge

import (
	"math"
	"sync"
	"time"
)

// HostRate bounds how fast one host's own token may post: PerSecond results a second on
// average, Burst at once (a token bucket per identity). A host of WLCG's meshes posts about one
// result a second (a latencybg result per peer a minute, its traceroutes and throughput tests),
// and a backlog after an outage at the pace of pScheduler's archiver; a leaked or runaway token
// beyond that is answered 429 and takes no conversion slot from the others. The shared token is
// every host's, so it has no per-host bound (max_concurrent bounds it). Zero PerSecond: unbounded.
type HostRate struct {
	PerSecond float64
	Burst     int
}

// rateLimiter holds a bucket per limited identity; the identities are the tokens folder's, so
// the map is as large as the fleet.
type rateLimiter struct {
	rate   HostRate
	exempt string // the shared token's identity
	now    func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newRateLimiter(rate HostRate, exempt string, now func() time.Time) *rateLimiter {
	return &rateLimiter{rate: rate, exempt: exempt, now: now, buckets: map[string]*bucket{}}
}

// take spends one post of identity's: ok, or how long until it may post again.
func (l *rateLimiter) take(identity string) (wait time.Duration, ok bool) {
	if l.rate.PerSecond <= 0 || identity == l.exempt {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now, burst := l.now(), float64(max(l.rate.Burst, 1))
	b := l.buckets[identity]
	if b == nil {
		b = &bucket{tokens: burst, at: now}
		l.buckets[identity] = b
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.at).Seconds()*l.rate.PerSecond)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration(math.Ceil((1-b.tokens)/l.rate.PerSecond*1e9)) * time.Nanosecond, false
}
