package all

import (
	"encoding/json"
	"strings"
	"testing"

	"longhaul/probes/probekit"
)

// A bare result is read by the test its shape says: each shape must be a test type taken.
func TestEveryResultShapeIsATestTypeTaken(t *testing.T) {
	for _, sh := range probekit.ResultShapes {
		if _, ok := PSchedulerTestOf(sh.Test); !ok {
			t.Errorf("probekit.ResultShapes names %q, which PSchedulerTests does not take", sh.Test)
		}
	}
}

func TestTestTypesAreListedOnceEach(t *testing.T) {
	seen := map[string]bool{}
	for _, tt := range PSchedulerTests {
		if seen[tt.Type] || tt.Type == "" || tt.Import == nil {
			t.Errorf("entry %+v: a type given twice, or no type or importer", tt.Type)
		}
		seen[tt.Type] = true
	}
	// the lists name each type of the registry once, in its order, as prose: a type added is in
	// them without an edit here
	var all, by, agents []string
	for _, tt := range PSchedulerTests {
		all = append(all, tt.Type)
		if tt.ByPScheduler {
			by = append(by, tt.Type)
		} else {
			agents = append(agents, tt.Type)
		}
	}
	if got := Importable(); got != prose(all) || !strings.HasPrefix(got, "throughput, trace, rtt") {
		t.Errorf("Importable() = %q", got)
	}
	if got := PSchedulerTypes(true); got != prose(by) || !strings.Contains(got, "latencybg") {
		t.Errorf("PSchedulerTypes(true) = %q", got)
	}
	if got := PSchedulerTypes(false); got != prose(agents) {
		t.Errorf("PSchedulerTypes(false) = %q", got)
	}
}

func TestProseListsNamesAsASentenceDoes(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"rtt"}, "rtt"},
		{[]string{"latency", "latencybg"}, "latency and latencybg"},
		{[]string{"throughput", "trace", "rtt"}, "throughput, trace and rtt"},
	} {
		if got := prose(c.names); got != c.want {
			t.Errorf("prose(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

func TestEndsFollowEachTestsRule(t *testing.T) {
	for _, c := range []struct {
		typ, spec    string
		source, dest bool
	}{
		{"throughput", `{}`, true, true},
		{"throughput", `{"single-ended": false}`, true, false},
		{"latencybg", `{"flip": true}`, false, true},
		{"latency", `{}`, true, false},
		{"trace", `{"flip": true}`, true, false},
		{"dns", `{}`, true, false},        // a type Longhaul does not take: its source
		{"throughput", `[1]`, true, true}, // no object: no flags
	} {
		if s, d := Ends(c.typ, json.RawMessage(c.spec)); s != c.source || d != c.dest {
			t.Errorf("%s %s: source %v dest %v", c.typ, c.spec, s, d)
		}
	}
}
