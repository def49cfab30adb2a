package all

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probe"
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
