package psconfig

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each testdata/<case>/ holds a template (and the documents it includes) and, for each host, HOST.jsonl: the plan that host
// runs, as `longhaul-probe plan` prints it. Adding a case is adding a folder.
func TestGoldenPlansPerHost(t *testing.T) {
	cases, _ := filepath.Glob("testdata/*/template.json")
	if len(cases) < 2 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	for _, tmpl := range cases {
		dir := filepath.Dir(tmpl)
		// Read as the agent reads it: includes fetched and merged.
		tp, _, err := NewSource(tmpl, Options{}).Refresh(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		hosts, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if len(hosts) == 0 {
			t.Fatalf("%s: no HOST.jsonl", dir)
		}
		for _, f := range hosts {
			host := strings.TrimSuffix(filepath.Base(f), ".jsonl")
			t.Run(filepath.Base(dir)+"/"+host, func(t *testing.T) {
				want, _ := os.ReadFile(f)
				if !tp.Knows([]string{host}) {
					t.Fatalf("%s is no address of the template", host)
				}
				var got strings.Builder
				for _, e := range tp.Plan([]string{host}) {
					got.WriteString(e.JSON() + "\n")
				}
				if got.String() != string(want) {
					t.Errorf("plan of %s:\n%s\nwant (%s):\n%s", host, got.String(), f, want)
				}
			})
		}
	}
}

// Each testdata/refused/KIND.json is a template with one broken reference; KIND.error is what
// the refusal must say.
func TestGoldenRefusalsNameWhatIsMissing(t *testing.T) {
	cases, _ := filepath.Glob("testdata/refused/*.json")
	if len(cases) < 8 {
		t.Fatalf("only %d refusal cases", len(cases))
	}
	for _, f := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			raw, _ := os.ReadFile(f)
			want, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".error")
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(f, raw)
			if err == nil || !strings.Contains(err.Error(), strings.TrimSpace(string(want))) {
				t.Errorf("%v\nwant %s", err, want)
			}
		})
	}
}
