package rtt

import (
	"fmt"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probekit"
)

// Params of an rtt probe (iputils ping).
type Params struct {
	Count    int               `yaml:"count"`    // echo requests per run (-c)
	Interval probekit.Duration `yaml:"interval"` // between requests (-i)
	Timeout  probekit.Duration `yaml:"timeout"`  // wait for the last reply (-W)
	Size     int               `yaml:"size"`     // payload bytes (-s)
}

// DefaultParams is every default in one place.
func DefaultParams() Params {
	return Params{Count: 10, Interval: probekit.Duration(time.Second), Timeout: probekit.Duration(2 * time.Second), Size: 56}
}

// DecodeParams decodes and checks a probe's params; errors name the field.
func DecodeParams(node *yaml.Node) (Params, error) {
	return probekit.DecodeChecked(node, DefaultParams())
}

// Check validates the params.
func (p Params) Check() error {
	switch {
	case p.Count < 1 || p.Count > 1000:
		return fmt.Errorf("count: %d is not between 1 and 1000", p.Count)
	case p.Interval.D() < 200*time.Millisecond || p.Interval.D() > time.Minute:
		return fmt.Errorf("interval: %v is not between 200ms (ping's floor without root) and 1m", p.Interval.D())
	case p.Timeout.D() < time.Second || p.Timeout.D() > time.Minute || p.Timeout.D()%time.Second != 0:
		return fmt.Errorf("timeout: %v is not whole seconds between 1s and 1m", p.Timeout.D())
	case p.Size < 0 || p.Size > 65507:
		return fmt.Errorf("size: %d is not between 0 and 65507", p.Size)
	}
	return nil
}

// RunTimeout is how long a run may take: every interval, the last reply's wait and slack.
func (p Params) RunTimeout() time.Duration {
	return time.Duration(p.Count)*p.Interval.D() + p.Timeout.D() + 10*time.Second
}

// Argv is the ping command towards target, run without a shell; -n keeps names out of it.
func Argv(p Params, target string) ([]string, error) {
	if err := probekit.CheckTarget(target); err != nil {
		return nil, err
	}
	return []string{Tool, "-n",
		"-c", strconv.Itoa(p.Count),
		"-i", strconv.FormatFloat(p.Interval.D().Seconds(), 'f', -1, 64),
		"-W", strconv.Itoa(int(p.Timeout.D() / time.Second)),
		"-s", strconv.Itoa(p.Size),
		target,
	}, nil
}
