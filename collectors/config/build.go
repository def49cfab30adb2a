package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probe"
)

// Instance is one configured probe, built by its kind's Factory, with the targets it runs
// against.
type Instance struct {
	Conf    *Probe
	Probe   probe.Probe
	Targets []Target
}

// Build calls every probe's Factory with its params and exec. Factory errors are located at
// the params (or the probe entry when it has none). Nothing is run. With an error, the
// instances that did build are returned too, so a check can report every problem at once.
func (c *Config) Build(exec probe.Exec) ([]Instance, error) {
	l := &errorList{file: c.file, idx: c.idx}
	out := make([]Instance, 0, len(c.Probes))
	for i := range c.Probes {
		p := &c.Probes[i]
		path := fmt.Sprintf("probes[%d].params", i)
		factory, ok := probe.Lookup(p.Kind)
		if !ok { // validated by Load; kept for configs built by hand
			l.at(fmt.Sprintf("probes[%d].kind", i), "unknown kind %q", p.Kind)
			continue
		}
		params := &p.Params
		if params.Kind == 0 {
			params = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: c.idx.line(fmt.Sprintf("probes[%d]", i))}
		}
		pr, err := factory(params, exec)
		if err != nil {
			l.at(path, "%v", err)
			continue
		}
		out = append(out, Instance{Conf: p, Probe: pr, Targets: c.targetsOf(p)})
	}
	return out, l.err()
}

func (c *Config) targetsOf(p *Probe) []Target {
	if p.Targets.All {
		return append([]Target(nil), c.Targets...)
	}
	by := map[string]Target{}
	for _, t := range c.Targets {
		by[t.Name] = t
	}
	out := make([]Target, 0, len(p.Targets.Names))
	for _, n := range p.Targets.Names {
		out = append(out, by[n])
	}
	return out
}
