package psbridge

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/probes/all"
	"longhaul/probes/probekit"
)

// goldenArchives are the archive messages of every probe kind's pScheduler golden cases: what the
// Kafka and HTTP archivers send. A test type whose case is there but which all.PSchedulerTests
// does not take fails the conversion tests.
func goldenArchives(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "probes", "*", "testdata", "pscheduler", "*", "input.json"))
	for _, p := range paths {
		kind := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(p)))))
		switch {
		case strings.HasPrefix(filepath.Base(filepath.Dir(p)), "bare-"):
			continue // a bare result: archivers always send the whole run
		case kind == "all":
			continue // the importer's run records and wrapped results, not archive messages
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[kind+"/"+filepath.Base(filepath.Dir(p))] = b
	}
	if len(out) < 8 {
		t.Fatalf("only %d golden archive messages", len(out))
	}
	return out
}

func TestEveryGoldenArchiveConvertsWithItsLinkFromTheResult(t *testing.T) {
	for name, body := range goldenArchives(t) {
		c, err := Convert(body)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.HasPrefix(c.Key, "pscheduler-") || len(c.Samples) == 0 {
			t.Errorf("%s: key %q, %d samples", name, c.Key, len(c.Samples))
		}
		for _, s := range c.Samples {
			h := s.Head()
			raw, _ := json.Marshal(s)
			if h.Src == "" || h.Dst == "" || !strings.Contains(string(raw), `"run_id":"`+c.Key+`"`) || !strings.HasPrefix(h.ProbeID, ProbeIDPrefix) {
				t.Errorf("%s: sample %s", name, raw)
			}
		}
		again, _ := Convert(body)
		if again.Key != c.Key {
			t.Errorf("%s: the key changes between conversions: %q, %q", name, c.Key, again.Key)
		}
	}
}

// Convert decodes a result once and hands it decoded to its test's importer: the samples are
// the importer's own, as `longhaul-probe parse --tool pscheduler` reads the file.
func TestConvertGivesTheImportersOwnSamples(t *testing.T) {
	for name, body := range goldenArchives(t) {
		c, err := Convert(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := all.ParsePScheduler(body, probekit.Meta{ProbeID: c.Samples[0].Head().ProbeID, RunID: c.Key})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _ := json.Marshal(c.Samples)
		exp, _ := json.Marshal(want)
		if string(got) != string(exp) {
			t.Errorf("%s: Convert gave\n%s\nthe importer\n%s", name, got, exp)
		}
	}
}

func TestWhatCannotBeConvertedSaysWhy(t *testing.T) {
	bare, err := os.ReadFile("../../probes/throughput/testdata/pscheduler-result/iperf3-tcp-2streams-tbf20mbit/input.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(bare); !errors.Is(err, ErrBare) {
		t.Errorf("bare result: %v", err)
	}
	for body, want := range map[string]string{
		`not json`: "line 1 col 3: invalid JSON",
		`{"id":"x","test":{"type":"clock","spec":{}},"schedule":{"start":"2026-01-02T03:04:05Z"},"result":{"succeeded":true}}`: `"clock": only ` + all.Importable(),
		`{"id":"x","test":{"type":"rtt"}}`: "result: missing",
		strings.Repeat("[", 1<<20):         "",
	} {
		_, err := Convert([]byte(body))
		if err == nil || !strings.Contains(err.Error(), want) || len(err.Error()) > 1200 {
			t.Errorf("%.40q: %v", body, err)
		}
	}
}

// Whatever an archiver (or anyone with its certificate) sends, Convert returns samples or a
// bounded error, and never panics.
func FuzzConvert(f *testing.F) {
	for _, b := range goldenArchives(&testing.T{}) {
		f.Add(b)
	}
	f.Add([]byte(`{"id":"x","test":{"type":"throughput","spec":{"dest":"b"}},"schedule":{"start":"2026-01-02T03:04:05Z"},"result":{"succeeded":true}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := Convert(body)
		if err != nil {
			if len(err.Error()) > 2000 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if c.Key == "" || len(c.Samples) == 0 {
			t.Fatalf("converted without key or samples: %+v", c)
		}
	})
}
