package main

import (
	"reflect"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/collectors/config"
	"longhaul/internal/sampletest"
	"longhaul/probes/probe"
)

// The whole sample (`longhaul-probe config sample`) loads and builds, and the probe entries'
// commented values (targets, jitter, max_wait) are the defaults the loader applies.
func TestTheWholeSampleLoadsAndShowsEveryProbeFieldWithItsDefault(t *testing.T) {
	sample := config.Sample()
	uncommented, _ := sampletest.Uncomment(sample)
	var probes [2][]config.Probe
	for i, text := range []string{sample, uncommented} {
		c, err := config.Parse("sample.yaml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Build(nil); err != nil {
			t.Fatal(err)
		}
		if len(c.Probes) != len(probe.Kinds()) {
			t.Fatalf("%d probes in the sample, %d kinds", len(c.Probes), len(probe.Kinds()))
		}
		probes[i] = c.Probes
	}
	for i, p := range probes[0] {
		q := probes[1][i]
		if p.Targets.All != q.Targets.All || len(p.Targets.Names)+len(q.Targets.Names) != 0 || p.Interval != q.Interval ||
			*p.Jitter != *q.Jitter || *p.MaxWait != *q.MaxWait {
			t.Errorf("%s: as written all=%v jitter=%s max_wait=%s, uncommented all=%v jitter=%s max_wait=%s", p.ID,
				p.Targets.All, p.Jitter.D(), p.MaxWait.D(), q.Targets.All, q.Jitter.D(), q.MaxWait.D())
		}
	}
	var doc struct {
		Probes []yaml.Node `yaml:"probes"`
	}
	if err := yaml.Unmarshal([]byte(uncommented), &doc); err != nil {
		t.Fatal(err)
	}
	for _, n := range doc.Probes {
		want := sampletest.Tags(config.Probe{})
		if kindOf(&n) != probe.KindThroughput {
			// only a throughput probe can be a screening burst (config.validateScreens)
			want = slices.DeleteFunc(want, func(k string) bool { return k == "screens" })
		}
		if got := sampletest.Keys(&n); !reflect.DeepEqual(got, want) {
			t.Errorf("line %d: the entry shows %v, a probe has %v", n.Line, got, want)
		}
	}
}

// kindOf is the value of a probe entry's kind key.
func kindOf(n *yaml.Node) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "kind" {
			return n.Content[i+1].Value
		}
	}
	return ""
}
