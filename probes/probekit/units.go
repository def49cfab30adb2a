package probekit

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Size is a byte count written as iperf writes socket buffers: a plain number of bytes, or a
// number with K, M or G (also KiB, MiB, GiB), all powers of 1024: 64K = 65536, 4M = 4194304.
type Size int64

var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
}

// ParseSize parses "65536", "64K", "4M", "1GiB".
func ParseSize(s string) (Size, error) {
	s = strings.TrimSpace(s)
	up := strings.ToUpper(s)
	if strings.HasSuffix(up, "KB") || strings.HasSuffix(up, "MB") || strings.HasSuffix(up, "GB") {
		return 0, fmt.Errorf("invalid size %q: KB/MB/GB are ambiguous, write 64K or 64KiB (65536 bytes)", s)
	}
	num, mult := s, 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || v*mult > 1<<40 || (mult == 1 && v != math.Trunc(v)) {
		return 0, fmt.Errorf("invalid size %q (write e.g. 65536, 64K, 4M)", s)
	}
	return Size(math.Round(v * mult)), nil
}

// UnmarshalYAML parses a size.
func (z *Size) UnmarshalYAML(n *yaml.Node) error {
	return scalar(n, z, ParseSize, "invalid size (write e.g. 65536, 64K, 4M)")
}

// scalar decodes the YAML scalar n with parse into dst; a node that is not a scalar is refused
// with notScalar.
func scalar[T any](n *yaml.Node, dst *T, parse func(string) (T, error), notScalar string) error {
	if n.Kind != yaml.ScalarNode {
		return errors.New(notScalar)
	}
	v, err := parse(n.Value)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// String writes the size the short way iperf users write it: 64K, 4M, 1G, else bytes.
func (z Size) String() string {
	switch {
	case z == 0:
		return "0"
	case z%(1<<30) == 0:
		return fmt.Sprintf("%dG", z>>30)
	case z%(1<<20) == 0:
		return fmt.Sprintf("%dM", z>>20)
	case z%(1<<10) == 0:
		return fmt.Sprintf("%dK", z>>10)
	}
	return strconv.FormatInt(int64(z), 10)
}

// Rate is a bit rate written as iperf writes -b: a plain number of bits per second, or a
// number with K, M or G, powers of 1000: 50M = 50000000 bits/s.
type Rate int64

// ParseRate parses "50000000", "50M", "1G", "2.5G".
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	num, mult := s, 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			mult = 1e3
		case 'm', 'M':
			mult = 1e6
		case 'g', 'G':
			mult = 1e9
		}
		if mult != 1 {
			num = s[:len(s)-1]
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || v*mult > 1e13 {
		return 0, fmt.Errorf("invalid rate %q (write bits per second, e.g. 50M, 1G)", s)
	}
	return Rate(math.Round(v * mult)), nil
}

// UnmarshalYAML parses a rate.
func (r *Rate) UnmarshalYAML(n *yaml.Node) error {
	return scalar(n, r, ParseRate, "invalid rate (write bits per second, e.g. 50M, 1G)")
}

// Duration is a non-negative duration written the Go way: 500ms, 10s, 2m.
type Duration time.Duration

// UnmarshalYAML parses a duration; a bare number is refused (seconds or milliseconds?).
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return fmt.Errorf("invalid duration %q (write e.g. 500ms, 10s, 2m)", n.Value)
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", n.Value)
	}
	*d = Duration(v)
	return nil
}

// Round keeps digits decimals of v.
func Round(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}

// D is the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }
