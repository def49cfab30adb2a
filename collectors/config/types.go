package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Duration is a time.Duration written as Go writes it: 90s, 5m, 4h, 1h30m.
type Duration time.Duration

// UnmarshalYAML parses a duration; errors carry the line so the loader can name the field.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return typeError(n, "invalid duration %q (write e.g. 90s, 5m, 4h)", n.Value)
	}
	if v < 0 {
		return typeError(n, "negative duration %q", n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the Go form.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// D is the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// ByteSize is a size in bytes: a plain integer or a number with a unit (KiB, MiB, GiB, KB, MB, GB).
type ByteSize int64

var byteUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1},
}

// UnmarshalYAML parses a size.
func (b *ByteSize) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return typeError(n, "invalid size (write e.g. 268435456, 256MiB, 1GiB)")
	}
	s, mult := strings.TrimSpace(n.Value), int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return typeError(n, "invalid size %q (write e.g. 268435456, 256MiB, 1GiB)", n.Value)
	}
	*b = ByteSize(v * mult)
	return nil
}

// HostPorts is a list of host:port: a YAML list, or one string of comma-separated items (as
// --kafka and LONGHAUL_KAFKA give it).
type HostPorts []string

// UnmarshalYAML accepts a list of strings or one comma-separated string.
func (h *HostPorts) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*h = splitHostPorts(n.Value)
		return nil
	case yaml.SequenceNode:
		out := make(HostPorts, 0, len(n.Content))
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode {
				return typeError(item, "host:port must be a string")
			}
			out = append(out, strings.TrimSpace(item.Value))
		}
		*h = out
		return nil
	}
	return typeError(n, "write host:port, a list of them, or them comma-separated")
}

func splitHostPorts(s string) HostPorts {
	var out HostPorts
	for _, item := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(item))
	}
	return out
}

// TargetSel selects targets: "all", or a list of target names.
type TargetSel struct {
	All   bool
	Names []string
	set   bool
}

// UnmarshalYAML accepts the scalar "all" or a sequence of names.
func (t *TargetSel) UnmarshalYAML(n *yaml.Node) error {
	t.set = true
	switch {
	case n.Kind == yaml.ScalarNode && n.Value == "all":
		t.All = true
		return nil
	case n.Kind == yaml.SequenceNode:
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.Value == "" {
				return typeError(item, "a target name must be a non-empty string")
			}
			t.Names = append(t.Names, item.Value)
		}
		return nil
	}
	return typeError(n, "targets must be \"all\" or a list of target names")
}

// typeError reports an error the way yaml.v3 collects its own, so decoding goes on and every
// error of the file is reported with its line.
func typeError(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", n.Line, fmt.Sprintf(format, args...))}}
}
