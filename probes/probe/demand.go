package probe

import "time"

// Demand is what one run of a probe asks of this host and of the path: how long it holds them,
// with how many streams, at what total rate (0: unpaced, as fast as the path allows).
type Demand struct {
	Duration      time.Duration
	Streams       int
	BitsPerSecond float64
}

// Demanding is a probe that states its Demand (throughput): the agent judges a pSConfig plan's
// pairs against its own ceilings (config psconfig.limits) by it.
type Demanding interface{ Demand() Demand }
