package all

import (
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
)

// The forms pScheduler prints besides archive messages: bare results of each test, wrapped
// results (latency among them), REST run records with and without their task.
func TestPSchedulerFormsGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler", func(c golden.Case) ([]sample.Sample, error) {
		return ParsePScheduler(c.Input, c.MustMeta())
	})
}

func TestBareResultOfEveryKnownShapeHasAnImporter(t *testing.T) {
	for test, in := range map[string]string{
		"trace":      `{"succeeded": true, "paths": [[{"ip": "10.0.0.1", "rtt": "PT0.001S"}]]}`,
		"rtt":        `{"succeeded": true, "roundtrips": [{"seq": 1, "ip": "10.0.0.1", "rtt": "PT0.001S"}]}`,
		"latency":    `{"succeeded": true, "packets-sent": 1, "packets-received": 1, "histogram-latency": {"1.0": 1}}`,
		"no test":    `{"succeeded": false, "error": "Tool failed: Process took too long to run."}`,
		"run record": `{"state": "finished", "participant-data": {}, "result-merged": {"succeeded": true, "packets-sent": 1, "raw-packets": []}}`,
	} {
		m := golden.Case{Args: []string{"--src", "lh-a", "--dst", "lh-b", "--ts", "1795482621039"}}.MustMeta()
		ss, err := ParsePScheduler([]byte(in), m)
		switch test {
		case "trace", "rtt", "latency", "run record":
			if err != nil || len(ss) != 1 {
				t.Errorf("%s: %d samples, %v", test, len(ss), err)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), "Tool failed: Process took too long") || !strings.Contains(err.Error(), "import the archived message") {
				t.Errorf("%s: %v", test, err)
			}
		}
	}
}

func FuzzParsePSchedulerForms(f *testing.F) {
	parse := func(c golden.Case) ([]sample.Sample, error) { return ParsePScheduler(c.Input, c.MustMeta()) }
	golden.Fuzz(f, parse, []string{"--src", "a", "--dst", "b", "--ts", "1795482621039"}, func(t *testing.T, err error) {
		if len(err.Error()) > 1200 {
			t.Fatalf("error of %d bytes", len(err.Error()))
		}
	}, "testdata/pscheduler")
}
