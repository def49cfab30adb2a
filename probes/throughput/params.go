package throughput

import (
	"fmt"
	"regexp"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probekit"
)

// Params of a throughput probe: the iperf3 client options it sets. Defaults are in
// DefaultParams and nowhere else.
type Params struct {
	Protocol       string            `yaml:"protocol"`        // tcp | udp (-u)
	Streams        int               `yaml:"streams"`         // parallel streams (-P)
	Window         probekit.Size     `yaml:"window"`          // socket buffer (-w): 64K, 4M; 0 = OS autotuning
	Congestion     string            `yaml:"congestion"`      // TCP congestion control (-C); "" = the host's default
	Reverse        bool              `yaml:"reverse"`         // the target sends (-R)
	Duration       probekit.Duration `yaml:"duration"`        // test length (-t), whole seconds
	Omit           probekit.Duration `yaml:"omit"`            // leading seconds left out of the summary (-O)
	Bitrate        *probekit.Rate    `yaml:"bitrate"`         // target rate (-b): 50M; UDP default 1M, TCP unpaced
	Port           int               `yaml:"port"`            // server port (-p)
	ConnectTimeout probekit.Duration `yaml:"connect_timeout"` // (--connect-timeout); 0 = the OS's
	HostSnapshot   bool              `yaml:"host_snapshot"`   // publish a host_snapshot with each run
}

// DefaultParams is every default in one place.
func DefaultParams() Params {
	return Params{
		Protocol:       "tcp",
		Streams:        1,
		Duration:       probekit.Duration(10 * time.Second),
		Port:           5201,
		ConnectTimeout: probekit.Duration(10 * time.Second),
		HostSnapshot:   true,
	}
}

// udpDefaultBitrate is iperf3's own default for UDP, written out so the record says it.
const udpDefaultBitrate = probekit.Rate(1_000_000)

var congestionRE = regexp.MustCompile(`^[a-z0-9_]{1,16}$`)

// DecodeParams decodes and checks a probe's params; errors name the field.
func DecodeParams(node *yaml.Node) (Params, error) {
	return probekit.DecodeChecked(node, DefaultParams())
}

// Check validates params set in code or decoded from YAML, and fills the UDP bitrate.
func (p *Params) Check() error {
	switch p.Protocol {
	case "tcp", "udp":
	default:
		return fmt.Errorf("protocol: %q is not tcp or udp", p.Protocol)
	}
	if p.Streams < 1 || p.Streams > 128 {
		return fmt.Errorf("streams: %d is not between 1 and 128 (iperf3's limit)", p.Streams)
	}
	if p.Window != 0 && (p.Window < 1024 || p.Window > 1<<30) {
		return fmt.Errorf("window: %d bytes is not between 1K and 1G", p.Window)
	}
	if p.Congestion != "" && !congestionRE.MatchString(p.Congestion) {
		return fmt.Errorf("congestion: %q is not a congestion control name (e.g. cubic, bbr, reno)", p.Congestion)
	}
	if p.Congestion != "" && p.Protocol != "tcp" {
		return fmt.Errorf("congestion: only applies to protocol tcp")
	}
	if err := wholeSeconds("duration", p.Duration.D(), 1, 3600); err != nil {
		return err
	}
	if err := wholeSeconds("omit", p.Omit.D(), 0, 600); err != nil {
		return err
	}
	if p.Port < 1 || p.Port > 65535 {
		return fmt.Errorf("port: %d is not between 1 and 65535", p.Port)
	}
	ct := p.ConnectTimeout.D()
	if ct%time.Millisecond != 0 || ct > time.Minute {
		return fmt.Errorf("connect_timeout: %v is not whole milliseconds up to 1m", ct)
	}
	if p.Bitrate == nil && p.Protocol == "udp" {
		r := udpDefaultBitrate
		p.Bitrate = &r
	}
	return nil
}

func wholeSeconds(field string, d time.Duration, min, max int) error {
	s := int(d / time.Second)
	if d%time.Second != 0 || s < min || s > max {
		return fmt.Errorf("%s: %v is not whole seconds between %ds and %ds (iperf3 counts seconds)", field, d, min, max)
	}
	return nil
}

// Timeout is how long a run may take: the test, the omitted seconds, connecting, and 10 s for
// iperf3 to exchange results with the server.
func (p Params) Timeout() time.Duration {
	ct := p.ConnectTimeout.D()
	if ct == 0 {
		ct = 2 * time.Minute // the kernel's SYN retries (net.ipv4.tcp_syn_retries = 6)
	}
	return p.Duration.D() + p.Omit.D() + ct + 10*time.Second
}

// Requested is what these params ask iperf3 for, for the parser's fallbacks.
func (p Params) Requested() Requested {
	return Requested{Protocol: p.Protocol, Streams: p.Streams, Window: int64(p.Window), Congestion: p.Congestion, Reverse: p.Reverse, Port: p.Port}
}
