package path

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probekit"
)

// Params of a path probe (Linux traceroute, UDP to a fixed port from a fixed port).
type Params struct {
	Queries int               `yaml:"queries"` // answers asked per hop (-q)
	MaxTTL  int               `yaml:"max_ttl"` // last TTL tried (-m)
	Wait    probekit.Duration `yaml:"wait"`    // how long to wait for each answer (-w)
	Port    int               `yaml:"port"`    // UDP destination port, the same for every probe (-U -p)
	// SourcePort is the UDP source port of every probe (--sport); 0 derives one from the
	// target (20000-20999) so that runs towards different targets may overlap.
	SourcePort int `yaml:"source_port"`
}

// DefaultParams is every default in one place.
func DefaultParams() Params {
	return Params{Queries: 3, MaxTTL: 30, Wait: probekit.Duration(2 * time.Second), Port: 33434}
}

// DecodeParams decodes and checks a probe's params; errors name the field.
func DecodeParams(node *yaml.Node) (Params, error) {
	return probekit.DecodeChecked(node, DefaultParams())
}

// Check validates the params.
func (p Params) Check() error {
	switch {
	case p.Queries < 1 || p.Queries > 10:
		return fmt.Errorf("queries: %d is not between 1 and 10 (traceroute's limit)", p.Queries)
	case p.MaxTTL < 1 || p.MaxTTL > 255:
		return fmt.Errorf("max_ttl: %d is not between 1 and 255", p.MaxTTL)
	case p.Wait.D() < 100*time.Millisecond || p.Wait.D() > time.Minute:
		return fmt.Errorf("wait: %v is not between 100ms and 1m", p.Wait.D())
	case p.Port < 1 || p.Port > 65535:
		return fmt.Errorf("port: %d is not between 1 and 65535", p.Port)
	case p.SourcePort != 0 && (p.SourcePort < 1024 || p.SourcePort > 65535):
		return fmt.Errorf("source_port: %d is not 0 (derived) or between 1024 and 65535", p.SourcePort)
	}
	return nil
}

// Timeout covers the worst case: with a fixed source port traceroute sends one probe at a
// time, so every TTL × query may wait the full wait.
func (p Params) Timeout() time.Duration {
	return time.Duration(p.MaxTTL*p.Queries)*p.Wait.D() + 10*time.Second
}

// sourcePort is the fixed source port towards target.
func (p Params) sourcePort(target string) int {
	if p.SourcePort != 0 {
		return p.SourcePort
	}
	h := fnv.New32a()
	h.Write([]byte(target))
	return 20000 + int(h.Sum32()%1000)
}

// Argv is the traceroute command towards target, run without a shell. -U with -p and --sport
// keeps source and destination ports constant, so every probe of a run is the same flow and a
// per-flow load balancer (ECMP) sends them all down one path, run after run (Paris traceroute's
// idea). Plain traceroute changes the destination port per probe and -U alone still changes
// the source port; both spread probes over parallel paths (see the ECMP golden cases).
// --sport also makes traceroute send probes one at a time.
func Argv(p Params, target string) ([]string, error) {
	if err := probekit.CheckTarget(target); err != nil {
		return nil, err
	}
	return []string{Tool, "-n", "-U",
		"-p", strconv.Itoa(p.Port),
		"--sport=" + strconv.Itoa(p.sourcePort(target)),
		"-q", strconv.Itoa(p.Queries),
		"-m", strconv.Itoa(p.MaxTTL),
		"-w", strconv.FormatFloat(p.Wait.D().Seconds(), 'f', -1, 64),
		target,
	}, nil
}
