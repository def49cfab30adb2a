package config

import (
	"fmt"
	"time"

	"longhaul/probes/probe"
)

// PSConfigLimits are this host's ceilings on what a pSConfig template may make it run: the
// template is someone else's document, fetched over the network. A pair beyond one runs nothing
// and says why (`longhaul-probe plan`, the health endpoint's plan). The config file's own probes
// are the site's and are not limited. Defaults in DefaultPSConfigLimits.
type PSConfigLimits struct {
	// MaxDuration bounds one throughput run, omitted seconds included (pScheduler's own default
	// limit for throughput is a minute).
	MaxDuration Duration `yaml:"max_duration"`
	// MaxStreams bounds a run's parallel streams.
	MaxStreams int `yaml:"max_streams"`
	// MaxMbps bounds a paced run's total rate (all streams), Mbit/s.
	MaxMbps float64 `yaml:"max_mbps"`
	// MinInterval is how often at most one exclusive pair (throughput) may run: its runs an hour.
	MinInterval Duration `yaml:"min_interval"`
	// MaxPairs bounds the pairs one plan gives this host; those after it run nothing.
	MaxPairs int `yaml:"max_pairs"`
}

// DefaultPSConfigLimits are the ceilings unless the config sets them: above every template of
// WLCG's and ESnet's meshes seen (runs of 10-31 s, throughput every hour or less often).
func DefaultPSConfigLimits() PSConfigLimits {
	return PSConfigLimits{MaxDuration: Duration(time.Minute), MaxStreams: 8, MaxMbps: 10000,
		MinInterval: Duration(5 * time.Minute), MaxPairs: 500}
}

func applyLimitsDefaults(l *PSConfigLimits) {
	d := DefaultPSConfigLimits()
	if l.MaxDuration == 0 {
		l.MaxDuration = d.MaxDuration
	}
	if l.MaxStreams == 0 {
		l.MaxStreams = d.MaxStreams
	}
	if l.MaxMbps == 0 {
		l.MaxMbps = d.MaxMbps
	}
	if l.MinInterval == 0 {
		l.MinInterval = d.MinInterval
	}
	if l.MaxPairs == 0 {
		l.MaxPairs = d.MaxPairs
	}
}

func validateLimits(l *errorList, p PSConfigLimits) {
	if p.MaxDuration < Duration(time.Second) || p.MaxStreams < 1 || p.MaxMbps <= 0 || p.MinInterval < 0 || p.MaxPairs < 1 {
		l.at("psconfig.limits", "max_duration (≥ 1s), max_streams, max_mbps and max_pairs must be positive, min_interval not negative")
	}
}

// Exceeds says which ceiling a pair of the plan passes, or "": its run's demand (zero values ask
// nothing), how often it runs, and whether it is exclusive.
func (p PSConfigLimits) Exceeds(d probe.Demand, interval time.Duration, exclusive bool) string {
	switch {
	case d.Duration > p.MaxDuration.D():
		return fmt.Sprintf("a run of %s is longer than this host's psconfig.limits.max_duration %s", d.Duration, p.MaxDuration.D())
	case d.Streams > p.MaxStreams:
		return fmt.Sprintf("%d streams are more than this host's psconfig.limits.max_streams %d", d.Streams, p.MaxStreams)
	case d.BitsPerSecond > p.MaxMbps*1e6:
		return fmt.Sprintf("%.0f Mbit/s is more than this host's psconfig.limits.max_mbps %.0f", d.BitsPerSecond/1e6, p.MaxMbps)
	case exclusive && interval < p.MinInterval.D():
		return fmt.Sprintf("every %s is more often than this host's psconfig.limits.min_interval %s for a throughput pair", interval, p.MinInterval.D())
	}
	return ""
}
