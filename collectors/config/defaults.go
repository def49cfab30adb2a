package config

import (
	"path/filepath"
	"time"
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
	// policer's rate on a long path (collectors/probes/throughput README, *A screening burst*).
	DefaultScreenDuration = 2 * time.Second
	// The pScheduler bridge: its HTTP path, the largest result it takes, its consumer group
	// (the psbridge Kafka user may use groups named so) and how many result ids it remembers.
	DefaultPSBridgePath         = "/pscheduler/results"
	DefaultPSBridgeMaxBody      = 16 << 20
	DefaultPSBridgeConcurrent   = 2
	DefaultPSBridgeMaxSamples   = 50_000
	PSBridgeGroupPrefix         = "longhaul-psbridge"
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
	if c.Kafka.Security == "" {
		c.Kafka.Security = DefaultSecurity
	}
	if c.Kafka.MaxInFlight == 0 {
		c.Kafka.MaxInFlight = DefaultMaxInFlight
	}
	if c.Spool.Dir == "" {
		c.Spool.Dir = DefaultSpoolDir
	}
	if c.Spool.MaxBytes == 0 {
		c.Spool.MaxBytes = DefaultSpoolMaxBytes
	}
	if c.Spool.SegmentBytes == 0 {
		c.Spool.SegmentBytes = DefaultSegmentBytes
	}
	if c.Spool.Fsync == "" {
		c.Spool.Fsync = DefaultFsync
	}
	if c.Spool.FsyncInterval == 0 {
		c.Spool.FsyncInterval = Duration(DefaultFsyncInterval)
	}
	if c.Health.Listen == "" {
		c.Health.Listen = DefaultHealthListen
	}
	if c.Health.LogEvery == 0 {
		c.Health.LogEvery = Duration(DefaultLogEvery)
	}
	if c.Schedule.MaxBackground == 0 {
		c.Schedule.MaxBackground = DefaultMaxBackground
	}
	if c.PSConfig.Refresh == 0 {
		c.PSConfig.Refresh = Duration(DefaultPSConfigRefresh)
	}
	if c.PSConfig.Screen.Duration == 0 {
		c.PSConfig.Screen.Duration = Duration(DefaultScreenDuration)
	}
	if c.PSConfig.Timeout == 0 {
		c.PSConfig.Timeout = Duration(DefaultPSConfigTimeout)
	}
	applyLimitsDefaults(&c.PSConfig.Limits)
	applyPSBridgeDefaults(&c.PSBridge, c.Spool.Dir)
	applyRequestsDefaults(&c.ProbeRequests, c)
	for i := range c.Targets {
		t := &c.Targets[i]
		if t.Address == "" {
			t.Address = t.Name
		}
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
	if b.Path == "" {
		b.Path = DefaultPSBridgePath
	}
	if b.MaxBody == 0 {
		b.MaxBody = DefaultPSBridgeMaxBody
	}
	if b.MaxConcurrent == 0 {
		b.MaxConcurrent = DefaultPSBridgeConcurrent
	}
	if b.MaxSamples == 0 {
		b.MaxSamples = DefaultPSBridgeMaxSamples
	}
	if b.Group == "" {
		b.Group = PSBridgeGroupPrefix
	}
	if b.SeenFile == "" {
		b.SeenFile = filepath.Join(spoolDir, "pscheduler-seen.log")
	}
	if b.SeenCapacity == 0 {
		b.SeenCapacity = DefaultPSBridgeSeenCapacity
	}
}
