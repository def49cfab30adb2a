package all

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/probes/probe"
)

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// The config snippets of the probes' READMEs are the documentation users copy: every probe
// in them must build with its kind's factory.
func TestREADMEConfigSnippetsBuild(t *testing.T) {
	files, _ := filepath.Glob("../*/README.md")
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range yamlBlock.FindAllSubmatch(b, -1) {
			var doc struct {
				Probes []struct {
					ID     string    `yaml:"id"`
					Kind   string    `yaml:"kind"`
					Params yaml.Node `yaml:"params"`
				} `yaml:"probes"`
			}
			if err := yaml.Unmarshal(m[1], &doc); err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			for _, p := range doc.Probes {
				factory, ok := probe.Lookup(p.Kind)
				if !ok {
					t.Errorf("%s: %s: unknown kind %q", f, p.ID, p.Kind)
					continue
				}
				if _, err := factory(&p.Params, nil); err != nil {
					t.Errorf("%s: %s: %v", f, p.ID, err)
				}
				n++
			}
		}
	}
	if n < 6 {
		t.Fatalf("only %d probes found in the READMEs", n)
	}
}
