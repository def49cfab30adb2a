package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// The committed generated files are exactly what the generator writes from the committed
// contract: a change to contract.yaml or topics.yaml without `go generate`, or a hand edit of a
// generated file, fails here.
func TestCommittedGeneratedFilesMatchTheContract(t *testing.T) {
	files, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		committed, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Errorf("%s: %v; run `go generate ./ingest/...`", name, err)
			continue
		}
		if !bytes.Equal(committed, files[name]) {
			t.Errorf("%s differs from what ingest/contract.yaml and ingest/topics.yaml generate (%s); run `go generate ./ingest/...`",
				name, firstDifference(committed, files[name]))
		}
	}
}

func firstDifference(have, want []byte) string {
	h, w := strings.Split(string(have), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(h) || i < len(w); i++ {
		var hl, wl string
		if i < len(h) {
			hl = h[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if hl != wl {
			return fmt.Sprintf("line %d is %q, would be %q", i+1, hl, wl)
		}
	}
	return "same lines"
}

// A contract that breaks a rule is refused with every problem located as FILE:LINE: field.
func TestBadContractIsRefusedWithFileLineAndField(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(root, contractFile))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new string
		want           []string
	}{
		{"recovery of an info kind", "closes: high_loss", "closes: stall",
			[]string{`event_kinds[8].closes: a recovery closes an alert kind; "stall" is not one`,
				`alert "high_loss" is closed by 0 recovery kinds`}},
		{"unknown role", "  - name: stall\n    role: info", "  - name: stall\n    role: warning",
			[]string{`event_kinds[2].role: "warning" is not one of alert, recovery, update, info`}},
		{"closes on an alert", "  - name: no_data\n    role: alert", "  - name: no_data\n    role: alert\n    closes: stall",
			[]string{`event_kinds[13].closes: only a recovery closes an alert (role is "alert")`}},
		{"update of a recovery", "updates: incident_opened", "updates: incident_resolved",
			[]string{`event_kinds[19].updates: an update re-raises an alert kind; "incident_resolved" is not one`}},
		{"updates on an info kind", "  - name: diagnosis\n    role: info", "  - name: diagnosis\n    role: info\n    updates: no_data",
			[]string{`event_kinds[12].updates: only an update updates an alert (role is "info")`}},
		{"duplicate kind", "name: diagnosis", "name: stall",
			[]string{`event_kinds[12].name: duplicate kind "stall"`}},
		{"role with no topic", "schema: link_stats.v3", "schema: link_stats.v4",
			[]string{`topic_roles[12].schema: 0 topics of ingest/topics.yaml carry "link_stats.v4"`,
				"topic longhaul.stats (schema link_stats.v3) has no role"}},
		{"threshold without value", "    value: 2\n", "",
			[]string{"thresholds[0].value: required"}},
		{"unknown field", "    role: info\n", "    role: info\n    severity: warning\n",
			[]string{"field severity not found"}},
		{"header name not a header", "header: longhaul-sent-ms", "header: Longhaul_Sent_MS",
			[]string{`record_headers[0].header: "Longhaul_Sent_MS" is not a lower-case dash-separated header name`}},
		{"header twice", "  - name: sent_ms\n    header: longhaul-sent-ms\n",
			"  - name: sent_ms\n    header: longhaul-sent-ms\n    doc: x\n  - name: sent_ms\n    header: longhaul-sent-ms\n",
			[]string{`record_headers[1].name: duplicate header "sent_ms"`, `record_headers[1].header: duplicate header name "longhaul-sent-ms"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !bytes.Contains(good, []byte(c.old)) {
				t.Fatalf("contract.yaml no longer has %q: update the case", c.old)
			}
			dir := fakeRoot(t, bytes.Replace(good, []byte(c.old), []byte(c.new), 1))
			_, err := Generate(dir)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if located := strings.HasPrefix(c.want[0], "event_kinds[") || strings.HasPrefix(c.want[0], "record_headers["); located && !strings.Contains(err.Error(), "ingest/contract.yaml:") {
				t.Errorf("error does not name the file and line:\n%v", err)
			}
		})
	}
}

// fakeRoot is a repository root holding the committed topics and schemas and the given contract.
func fakeRoot(t *testing.T, contract []byte) string {
	return fakeRootTopics(t, contract, read(t, topicsFile))
}

func fakeRootTopics(t *testing.T, contract, topics []byte) string {
	dir := t.TempDir()
	const eventSchema = schemasDir + "/event.v4.schema.json"
	for name, data := range map[string][]byte{contractFile: contract, topicsFile: topics, eventSchema: read(t, eventSchema)} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A schema that two roles carry (a raw sample's and its history's): each of its topics must name
// its role, and the role must be of the topic's schema.
func TestATopicOfASharedSchemaNamesItsRole(t *testing.T) {
	good := read(t, topicsFile)
	for _, c := range []struct{ name, old, new, want string }{
		{"role left out", "    role: history.path\n", "",
			"topic longhaul.history.path: schema path_sample.v2 has the roles raw.path, paths, history.path; name the topic's role"},
		{"role of another schema", "    role: history.path\n", "    role: history.throughput\n",
			"topic longhaul.history.path carries path_sample.v2, but its role history.throughput carries throughput_sample.v2"},
		{"role the contract lacks", "    role: history.path\n", "    role: history.rtt\n",
			`topic longhaul.history.path names role "history.rtt", which ingest/contract.yaml topic_roles lacks`},
		{"two topics of one role", "    role: history.path\n", "    role: raw.path\n",
			`0 topics of ingest/topics.yaml carry "path_sample.v2"; a role needs exactly one`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !bytes.Contains(good, []byte(c.old)) {
				t.Fatalf("topics.yaml no longer has %q: update the case", c.old)
			}
			_, err := Generate(fakeRootTopics(t, read(t, contractFile), bytes.Replace(good, []byte(c.old), []byte(c.new), 1)))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v lacks %q", err, c.want)
			}
		})
	}
}

func TestTwoRawTopicsOfOneSampleFamilyAreRefused(t *testing.T) {
	p := &problems{}
	checkSampleFamilies(p, []Topic{
		{Role: "raw.rtt", Name: "longhaul.raw.rtt", Schema: "rtt_sample.v2"},
		{Role: "raw.ping", Name: "longhaul.raw.ping", Schema: "rtt_sample.v1"},
		{Role: "history.rtt", Name: "longhaul.history.rtt", Schema: "rtt_sample.v2"},
	})
	want := "topics longhaul.raw.rtt and longhaul.raw.ping both carry rtt_sample samples (roles raw.*)"
	if len(p.errs) != 1 || !strings.Contains(p.errs[0], want) {
		t.Fatalf("errors %q, want one with %q", p.errs, want)
	}
}

func read(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNames(t *testing.T) {
	for in, want := range map[string][2]string{
		"raw.rtt": {"RawRTT", "RAW_RTT"}, "dead_letter": {"DeadLetter", "DEAD_LETTER"},
		"loss_alarm_percent": {"LossAlarmPercent", "LOSS_ALARM_PERCENT"}, "high_loss": {"HighLoss", "HIGH_LOSS"},
		"sent_ms": {"SentMs", "SENT_MS"},
	} {
		if g, j := goName(in), javaConst(in); g != want[0] || j != want[1] {
			t.Errorf("%s: %s %s, want %s %s", in, g, j, want[0], want[1])
		}
	}
	for v, want := range map[float64]string{2: "2.0", 0.5: "0.5", 1e21: "1e+21"} {
		if got := number(v); got != want {
			t.Errorf("number(%v) = %s, want %s", v, got, want)
		}
	}
}

// The events topic's schema takes its kind enum from contract.yaml: a kind renamed there is renamed
// in the schema's enum, and nothing else of the schema changes.
func TestTheEventSchemasKindsAreTheContracts(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(root, contractFile))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(fakeRoot(t, bytes.Replace(good, []byte("name: route_change"), []byte("name: path_change"), 1)))
	if err != nil {
		t.Fatal(err)
	}
	const schema = "ingest/schemas/event.v4.schema.json"
	was, err := os.ReadFile(filepath.Join(root, schema))
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(was, []byte(`"route_change",`), []byte(`"path_change",`), 1)
	if !bytes.Equal(files[schema], want) {
		t.Fatalf("the schema rendered:\n%s", files[schema])
	}
}

func TestAnEnumWrittenOtherwiseIsRefused(t *testing.T) {
	kinds := []Kind{{Name: "a"}, {Name: "b"}}
	got, err := renderKindEnum("e.json", []byte("{\n  \"kind\": {\n    \"enum\": [\n      \"x\"\n    ]\n  }\n}\n"), kinds)
	if err != nil || string(got) != "{\n  \"kind\": {\n    \"enum\": [\n      \"a\",\n      \"b\"\n    ]\n  }\n}\n" {
		t.Fatalf("%q %v", got, err)
	}
	for _, text := range []string{`{"kind": {"enum": ["x"]}}`, "{\n  \"kind\": {\n    \"enum\": [\n      \"x\"\n"} {
		if _, err := renderKindEnum("e.json", []byte(text), kinds); err == nil || !strings.HasPrefix(err.Error(), "e.json: ") {
			t.Errorf("%q: %v", text, err)
		}
	}
}
