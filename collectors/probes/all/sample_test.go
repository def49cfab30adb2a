package all

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/collectors/config"
	"longhaul/collectors/internal/sampletest"
	"longhaul/collectors/probe"
)

// Every kind registers its sample: one probe entry of its own kind that builds, whose probe
// names the tools it runs (for `longhaul-probe check`).
func TestEveryKindHasASampleThatBuildsAndNamesItsTools(t *testing.T) {
	for _, kind := range probe.Kinds() {
		sample := probe.SampleConfig(kind)
		var entries []struct {
			Kind   string    `yaml:"kind"`
			Params yaml.Node `yaml:"params"`
		}
		if err := yaml.Unmarshal([]byte(sample), &entries); err != nil || len(entries) != 1 || entries[0].Kind != kind {
			t.Errorf("%s: sample %+v, %v:\n%s", kind, entries, err, sample)
			continue
		}
		if !strings.HasPrefix(sample, "  ## "+kind+": ") {
			t.Errorf("%s: the sample starts with %q, want a \"## %s: what it does\" comment indented under probes:", kind, strings.SplitN(sample, "\n", 2)[0], kind)
		}
		factory, _ := probe.Lookup(kind)
		p, err := factory(&entries[0].Params, nil)
		if err != nil {
			t.Errorf("%s: the sample does not build: %v", kind, err)
			continue
		}
		if u, ok := p.(probe.ToolUser); !ok || len(u.Tools()) == 0 {
			t.Errorf("%s: the probe names no tools", kind)
		}
	}
}

// The README of a kind shows its sample, as the params' documentation: it must be the
// sample, byte for byte.
func TestEveryREADMEShowsItsKindsSample(t *testing.T) {
	for _, kind := range probe.Kinds() {
		b, err := os.ReadFile(filepath.Join("..", kind, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		if block := "```yaml\nprobes:\n" + probe.SampleConfig(kind) + "```\n"; !strings.Contains(string(b), block) {
			t.Errorf("%s/README.md does not show sample.yaml; paste this block under \"## Params\":\n%s", kind, block)
		}
	}
}

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
