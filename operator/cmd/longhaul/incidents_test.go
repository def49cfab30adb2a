package main

import (
	"strings"
	"testing"
	"time"

	"longhaul/operator/results"
)

func TestAnOpenIncidentPrintsItsPlaceLinksEvidenceAndSilenceCommand(t *testing.T) {
	since := time.Date(2026, 11, 24, 21, 10, 0, 0, time.UTC)
	inc := results.Incident{ID: "incident-hop-1", Location: "hop 198.18.50.1 (AS 64512)", Open: true, Severity: "critical",
		Since: since, LinksDegraded: 2, Evidence: "2 of 2 measured links through hop 198.18.50.1 (AS 64512) are degraded",
		Links:   []results.IncidentLink{{Src: "s1", Dst: "d1", Kinds: []string{"throughput_collapse"}}, {Src: "s2", Dst: "d1"}},
		Silence: results.SilenceCommand("incident-hop-1")}
	want := `OPEN [critical]  hop 198.18.50.1 (AS 64512), 2 links
  since     2026-11-24 21:10
  incident  incident-hop-1
  links     s1 → d1 (throughput_collapse)
            s2 → d1
  evidence  2 of 2 measured links through hop 198.18.50.1 (AS 64512) are degraded
  silence   longhaul silence --incident incident-hop-1 --for 2h --comment TEXT`
	if got := strings.Join(incidentLines(inc), "\n"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestAResolvedIncidentSaysWhenAndHowAndHasNoSilenceCommand(t *testing.T) {
	at := time.Date(2026, 11, 24, 21, 22, 0, 0, time.UTC)
	var b strings.Builder
	writeIncidents(&b, []results.Incident{{ID: "e", Location: "site dst-c", Resolved: at, Since: at.Add(-9 * time.Minute),
		LinksDegraded: 1, Evidence: "…", Outcome: "site dst-c: its link has recovered (open 9 min)"}}, 24*time.Hour)
	out := b.String()
	for _, s := range []string{"incidents in the last 24h: 0 open, 1 resolved", "resolved 2026-11-24 21:22  site dst-c, 1 link",
		"  links     not stored", "  outcome   site dst-c"} {
		if !strings.Contains(out, s) {
			t.Errorf("missing %q in\n%s", s, out)
		}
	}
	if strings.Contains(out, "silence") {
		t.Errorf("a resolved incident has nothing to silence:\n%s", out)
	}
}

func TestIncidentsRefusesANonPositiveRange(t *testing.T) {
	var out, errb strings.Builder
	if code := dispatch([]string{"incidents", "--since", "-1h"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--since -1h0m0s: must be positive") {
		t.Fatalf("exit %d, %q", code, errb.String())
	}
}
