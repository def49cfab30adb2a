package config

import (
	"path/filepath"
	"time"

	"longhaul/ingest/contract"
)

// Defaults, applied in one place. The sample config (sample.yaml) shows them as comments;
// TestTheSampleShowsEveryDefault holds the two together.
const (
	DefaultClientIDPrefix = "longhaul-probe"
	DefaultMaxInFlight    = 1000
	DefaultSpoolDir       = "/var/lib/longhaul/spool"
	DefaultSpoolMaxBytes  = 256 << 20
	DefaultSegmentBytes   = 8 << 20
	DefaultFsync          = FsyncAlways
	DefaultFsyncInterval  = time.Second
	DefaultHealthListen   = "127.0.0.1:9273"
	DefaultLogEvery       = time.Minute
	DefaultMaxBackground  = 4
	// The pSConfig template is fetched again every hour, as pSConfig's own agent does.
	DefaultPSConfigRefresh = time.Hour
	DefaultPSConfigTimeout = 30 * time.Second
	// DefaultScreenDuration is a screening burst's length: enough for slow start to pass a
	// policer's rate on a long path (probes/throughput README, *A screening burst*).
	DefaultScreenDuration = 2 * time.Second
	// The pScheduler bridge: its HTTP path, the largest result it takes, its consumer group
	// (the psbridge Kafka user may use groups named so) and how many result ids it remembers.
	DefaultPSBridgePath    = "/pscheduler/results"
	DefaultPSBridgeMaxBody = 16 << 20
	// results converted at once: at 500 pScheduler hosts (WLCG's cadence, 264 results/s) 2 answered
	// 3.5 % of the posts 429 and 4 none (docs/benchmarks.md, The knee)
	DefaultPSBridgeConcurrent   = 4
	DefaultPSBridgeHostRate     = 10.0 // results a second a host's own token may post, on average
	DefaultPSBridgeHostBurst    = 600  // ...and at once
	DefaultPSBridgeMaxSamples   = 50_000
	PSBridgeGroupPrefix         = contract.PSBridgeGroupPrefix
	DefaultPSBridgeSeenCapacity = 1_000_000
	// A probe's jitter defaults to interval/DefaultJitterDivisor; its max_wait to the interval.
	DefaultJitterDivisor = 4
)

// Fsync policies of the spool.
const (
	FsyncAlways   = "always"
	FsyncInterval = "interval"
	FsyncNever    = "never"
)

// HealthOff disables the health endpoint.
const HealthOff = "off"

func applyDefaults(c *Config) {
	if c.Kafka.ClientID == "" {
		c.Kafka.ClientID = DefaultClientIDPrefix
		if c.Src != "" {
			c.Kafka.ClientID += "-" + c.Src
		}
	}
	setDefault(&c.Kafka.Security, DefaultSecurity)
	setDefault(&c.Kafka.MaxInFlight, DefaultMaxInFlight)
	setDefault(&c.Spool.Dir, DefaultSpoolDir)
	setDefault(&c.Spool.MaxBytes, DefaultSpoolMaxBytes)
	setDefault(&c.Spool.SegmentBytes, DefaultSegmentBytes)
	setDefault(&c.Spool.Fsync, DefaultFsync)
	setDefault(&c.Spool.FsyncInterval, Duration(DefaultFsyncInterval))
	setDefault(&c.Health.Listen, DefaultHealthListen)
	setDefault(&c.Health.LogEvery, Duration(DefaultLogEvery))
	setDefault(&c.Schedule.MaxBackground, DefaultMaxBackground)
	setDefault(&c.PSConfig.Refresh, Duration(DefaultPSConfigRefresh))
	setDefault(&c.PSConfig.Screen.Duration, Duration(DefaultScreenDuration))
	setDefault(&c.PSConfig.Timeout, Duration(DefaultPSConfigTimeout))
	applyLimitsDefaults(&c.PSConfig.Limits)
	applyPSBridgeDefaults(&c.PSBridge, c.Spool.Dir)
	applyRequestsDefaults(&c.ProbeRequests, c)
	for i := range c.Targets {
		t := &c.Targets[i]
		setDefault(&t.Address, t.Name)
	}
	for i := range c.Probes {
		p := &c.Probes[i]
		if !p.Targets.set {
			p.Targets.All = true
		}
		if p.Jitter == nil {
			j := p.Interval / DefaultJitterDivisor
			p.Jitter = &j
		}
		if p.MaxWait == nil {
			w := p.Interval
			p.MaxWait = &w
		}
	}
}

func applyPSBridgeDefaults(b *PSBridge, spoolDir string) {
	setDefault(&b.Path, DefaultPSBridgePath)
	setDefault(&b.MaxBody, DefaultPSBridgeMaxBody)
	setDefault(&b.MaxConcurrent, DefaultPSBridgeConcurrent)
	setDefault(&b.HostRate, DefaultPSBridgeHostRate)
	setDefault(&b.HostBurst, DefaultPSBridgeHostBurst)
	setDefault(&b.MaxSamples, DefaultPSBridgeMaxSamples)
	setDefault(&b.Group, PSBridgeGroupPrefix)
	setDefault(&b.SeenFile, filepath.Join(spoolDir, "pscheduler-seen.log"))
	setDefault(&b.SeenCapacity, DefaultPSBridgeSeenCapacity)
}

// setDefault gives *v the default d when it is unset (the zero value).
func setDefault[T comparable](v *T, d T) {
	var zero T
	if *v == zero {
		*v = d
	}
}
