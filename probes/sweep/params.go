package sweep

import (
	"fmt"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probekit"
	"longhaul/probes/throughput"
)

// Params of a sweep: the grid and the throughput settings every cell shares.
type Params struct {
	Windows []probekit.Size   `yaml:"windows"` // socket buffers to try (-w), required
	Streams []int             `yaml:"streams"` // parallel streams to try (-P)
	Gap     probekit.Duration `yaml:"gap"`     // pause between cells, for queues to drain
	// Throughput holds the throughput kind's params shared by every cell (protocol,
	// duration, omit, port…); window and streams come from the grid.
	Throughput yaml.Node `yaml:"throughput"`

	base throughput.Params
}

// DefaultParams is every default in one place.
func DefaultParams() Params {
	return Params{Streams: []int{1}, Gap: probekit.Duration(2 * time.Second)}
}

const maxCells = 64

// DecodeParams decodes and checks a sweep's params; errors name the field.
func DecodeParams(node *yaml.Node) (Params, error) {
	return probekit.DecodeChecked(node, DefaultParams())
}

// Check validates the params.
func (p *Params) Check() error {
	if len(p.Windows) == 0 {
		return fmt.Errorf("windows: required, e.g. [64K, 256K, 1M, 4M]")
	}
	if len(p.Streams) == 0 {
		return fmt.Errorf("streams: at least one stream count")
	}
	if n := len(p.Windows) * len(p.Streams); n > maxCells {
		return fmt.Errorf("windows × streams: %d cells, at most %d", n, maxCells)
	}
	seen := map[probekit.Size]bool{}
	for _, w := range p.Windows {
		if w < 1024 || w > 1<<30 || seen[w] {
			return fmt.Errorf("windows: %s is repeated or not between 1K and 1G", w)
		}
		seen[w] = true
	}
	seenS := map[int]bool{}
	for _, s := range p.Streams {
		if s < 1 || s > 128 || seenS[s] {
			return fmt.Errorf("streams: %d is repeated or not between 1 and 128", s)
		}
		seenS[s] = true
	}
	if p.Gap.D() > 10*time.Minute {
		return fmt.Errorf("gap: %v is longer than 10m", p.Gap.D())
	}
	if p.Throughput.Kind == yaml.MappingNode {
		for i := 0; i < len(p.Throughput.Content); i += 2 {
			switch k := p.Throughput.Content[i].Value; k {
			case "window", "streams", "host_snapshot":
				return fmt.Errorf("throughput.%s: set by the sweep (windows, streams; one snapshot per sweep)", k)
			}
		}
	}
	base, err := throughput.DecodeParams(&p.Throughput)
	if err != nil {
		return fmt.Errorf("throughput.%v", err)
	}
	base.HostSnapshot = false // one snapshot for the whole sweep
	p.base = base
	return nil
}

// cell is one point of the grid.
type cell struct {
	label  string // "w=64K,P=4"
	params throughput.Params
}

func (p Params) cells() []cell {
	var out []cell
	for _, w := range p.Windows {
		for _, s := range p.Streams {
			c := p.base
			c.Window, c.Streams = w, s
			out = append(out, cell{label: fmt.Sprintf("w=%s,P=%d", w, s), params: c})
		}
	}
	return out
}

// Timeout covers every cell, run one after the other, and the gaps between them.
func (p Params) Timeout() time.Duration {
	var total time.Duration
	for _, c := range p.cells() {
		total += c.params.Timeout() + p.Gap.D()
	}
	return total
}
