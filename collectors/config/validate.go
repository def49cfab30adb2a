package config

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

var (
	// hostRE is the schemas' pattern for src and dst.
	hostRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)
	probeIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

func validate(l *errorList, c *Config) {
	checkHostName(l, "src", c.Src)
	validateOwnSrc(l, c)
	validateKafka(l, &c.Kafka, c.kafkaFrom)
	c.validateSecurity(l)
	validateSpool(l, &c.Spool)
	validateHealth(l, c)
	validatePSConfig(l, &c.PSConfig)
	validateLimits(l, c.PSConfig.Limits)
	validatePSBridge(l, &c.PSBridge)
	if c.PSBridge.Enabled() && c.PSBridge.Hosts == nil {
		c.warnings = append(c.warnings, c.file+": pscheduler_bridge.hosts is unset: any pScheduler host may "+
			"report results for any host (name each identity's hosts: perfsonar/psbridge/README.md)")
	}
	validateRequests(l, &c.ProbeRequests, c.Kafka)
	// a plan from pSConfig, or a bridge alone, needs no targets of its own
	own := !c.PSConfig.Enabled() && !c.PSBridge.Enabled()
	names := validateTargets(l, c.Targets, own)
	validateProbes(l, c.Probes, names, own)
	validateScreens(l, c.Probes)
}

// validatePSConfig checks where the template comes from. Plain http is refused: a template
// says what this host runs and against which addresses, and anyone on the path could rewrite it.
func validatePSConfig(l *errorList, p *PSConfig) {
	u := p.URL
	switch {
	case u == "":
		if p.CAFile != "" || len(p.MatchAddresses) > 0 || p.Screen.Interval != 0 {
			l.at("psconfig.url", "required when psconfig has other settings (an https:// URL or a file)")
		}
		return
	case strings.HasPrefix(u, "http://"):
		l.at("psconfig.url", "%q: plain http; use https:// (or a file)", u)
	case strings.HasPrefix(u, "https://"):
		if len(u) == len("https://") {
			l.at("psconfig.url", "%q has no host", u)
		}
	case strings.Contains(u, "://") && !strings.HasPrefix(u, "file://"):
		l.at("psconfig.url", "%q: an https:// URL, a file:// URL or a path", u)
	default:
		if p.CAFile != "" {
			l.at("psconfig.ca_file", "only for an https:// url")
		}
	}
	if p.Refresh.D() < time.Minute {
		l.at("psconfig.refresh", "must be at least 1m, got %s", p.Refresh.D())
	}
	if p.Timeout.D() < time.Second {
		l.at("psconfig.timeout", "must be at least 1s, got %s", p.Timeout.D())
	}
	for i, a := range p.MatchAddresses {
		if a == "" {
			l.at(fmt.Sprintf("psconfig.match_addresses[%d]", i), "empty")
		}
	}
	validateScreen(l, p.Screen)
}

// validateScreen checks the plan's screening bursts: no shorter apart than a minute, each whole
// seconds (iperf3 counts seconds) up to a minute: a longer one is a test, not a burst.
func validateScreen(l *errorList, s PSConfigScreen) {
	if s.Interval != 0 && s.Interval.D() < time.Minute {
		l.at("psconfig.screen.interval", "must be 0 (no bursts) or at least 1m, got %s", s.Interval.D())
	}
	if d := s.Duration.D(); d%time.Second != 0 || d < time.Second || d > time.Minute {
		l.at("psconfig.screen.duration", "%s is not whole seconds between 1s and 1m", d)
	}
}

func checkHostName(l *errorList, path, v string) {
	switch {
	case v == "":
		l.at(path, "required")
	case len(v) > 253 || !hostRE.MatchString(v):
		l.at(path, "%q is not a valid host name (letters, digits and . _ : - ; starting with a letter or digit)", v)
	}
}

// validateKafka checks the bootstrap address where it came from: from keys of the file
// (kafka.bootstrap, or the deprecated kafka.brokers) errors name FILE:LINE and the key; from
// a flag or a variable they name it.
func validateKafka(l *errorList, k *Kafka, from string) {
	inFile := from == KafkaKey || from == OldKafkaKey
	if len(k.Bootstrap) == 0 && inFile {
		l.at(KafkaKey, "required: at least one host:port (or --%s, %s)", KafkaFlag, KafkaEnv)
	}
	for i, b := range k.Bootstrap {
		err := checkHostPort(b)
		switch {
		case err == nil:
		case inFile:
			l.at(fmt.Sprintf("%s[%d]", from, i), "%v", err)
		default:
			l.outside(from, err.Error())
		}
	}
	if k.MaxInFlight < 1 || k.MaxInFlight > 10000 {
		l.at("kafka.max_in_flight", "must be between 1 and 10000, got %d", k.MaxInFlight)
	}
}

func checkHostPort(s string) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("%q is not host:port", s)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%q: port must be 1-65535", s)
	}
	if strings.HasPrefix(host, "-") || strings.ContainsAny(host, probekit.ShellMeta+" \t") {
		return fmt.Errorf("%q: invalid host", s)
	}
	return nil
}

func validateSpool(l *errorList, s *Spool) {
	if s.SegmentBytes < 64<<10 {
		l.at("spool.segment_bytes", "must be at least 64KiB, got %d", s.SegmentBytes)
	}
	if s.MaxBytes < 4*s.SegmentBytes {
		l.at("spool.max_bytes", "must be at least 4 × segment_bytes (%d), got %d", 4*s.SegmentBytes, s.MaxBytes)
	}
	switch s.Fsync {
	case FsyncAlways, FsyncInterval, FsyncNever:
	default:
		l.at("spool.fsync", "must be always, interval or never, got %q", s.Fsync)
	}
}

func validateHealth(l *errorList, c *Config) {
	if c.Health.Listen != HealthOff {
		if _, _, err := net.SplitHostPort(c.Health.Listen); err != nil {
			l.at("health.listen", "%q is not host:port (or \"off\")", c.Health.Listen)
		}
	}
	if c.Health.LogEvery.D() < time.Second {
		l.at("health.log_every", "must be at least 1s, got %s", c.Health.LogEvery.D())
	}
	if c.Schedule.MaxBackground < 1 {
		l.at("schedule.max_background", "must be at least 1, got %d", c.Schedule.MaxBackground)
	}
}

func validateTargets(l *errorList, ts []Target, required bool) map[string]bool {
	names := map[string]bool{}
	if len(ts) == 0 && required {
		l.at("targets", "required: at least one target (or a psconfig.url, or a pscheduler_bridge)")
	}
	for i, t := range ts {
		p := fmt.Sprintf("targets[%d]", i)
		checkHostName(l, p+".name", t.Name)
		if names[t.Name] && t.Name != "" {
			l.at(p+".name", "duplicate target name %q", t.Name)
		}
		names[t.Name] = true
		if msg := probekit.CheckAddress(t.Address); msg != "" {
			l.at(p+".address", "%q %s", t.Address, msg)
		}
		for k := range t.Labels {
			if k == "" {
				l.at(p+".labels", "empty label name")
			}
		}
	}
	return names
}

// CheckName returns why name cannot be a sample's src or dst, or "".
func CheckName(name string) string {
	if name == "" || len(name) > 253 || !hostRE.MatchString(name) {
		return fmt.Sprintf("%q is not a valid host name (letters, digits and . _ : - ; starting with a letter or digit)", name)
	}
	return ""
}

// CheckProbeID returns why id cannot be a probe id, or "".
func CheckProbeID(id string) string {
	if id == "" || len(id) > 100 || !probeIDRE.MatchString(id) {
		return fmt.Sprintf("%q: letters, digits and . _ - only, at most 100", id)
	}
	return ""
}

func validateProbes(l *errorList, ps []Probe, targets map[string]bool, required bool) {
	if len(ps) == 0 && required {
		l.at("probes", "required: at least one probe (or a psconfig.url, or a pscheduler_bridge)")
	}
	ids := map[string]bool{}
	for i, p := range ps {
		path := fmt.Sprintf("probes[%d]", i)
		switch {
		case p.ID == "":
			l.at(path+".id", "required")
		case len(p.ID) > 100 || !probeIDRE.MatchString(p.ID):
			l.at(path+".id", "%q: letters, digits and . _ - only, at most 100", p.ID)
		case ids[p.ID]:
			l.at(path+".id", "duplicate probe id %q", p.ID)
		}
		ids[p.ID] = true
		if p.Kind == "" {
			l.at(path+".kind", "required (one of %s)", strings.Join(probe.Kinds(), ", "))
		} else if _, ok := probe.Lookup(p.Kind); !ok {
			l.at(path+".kind", "unknown kind %q (known: %s)", p.Kind, strings.Join(probe.Kinds(), ", "))
		}
		seen := map[string]bool{}
		for j, n := range p.Targets.Names {
			tp := fmt.Sprintf("%s.targets[%d]", path, j)
			if !targets[n] {
				l.at(tp, "unknown target %q", n)
			}
			if seen[n] {
				l.at(tp, "target %q listed twice", n)
			}
			seen[n] = true
		}
		if p.Targets.set && !p.Targets.All && len(p.Targets.Names) == 0 {
			l.at(path+".targets", "empty list (write \"all\" or name targets)")
		}
		if p.Interval <= 0 {
			l.at(path+".interval", "required: a positive duration")
		}
		if p.Jitter.D() > p.Interval.D() {
			l.at(path+".jitter", "%s is longer than the interval %s", p.Jitter.D(), p.Interval.D())
		}
		if p.Interval > 0 && p.MaxWait.D() <= 0 {
			l.at(path+".max_wait", "must be positive")
		}
	}
}
