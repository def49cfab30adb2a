package results

import (
	"context"
	"strings"
	"testing"
	"time"

	"longhaul/operator/dashboards"
)

// The Mesh overview's link queries a report asks: those grouped by link.
func linkQueries(asked []string) []string {
	var out []string
	for _, q := range asked {
		if strings.Contains(q, `GROUP BY "src", "dst"`) {
			out = append(out, q)
		}
	}
	return out
}

func TestAReportForOneSiteAsksOnlyForItsLinks(t *testing.T) {
	to := time.Date(2026, 11, 24, 6, 40, 0, 0, time.UTC)
	for _, c := range []struct {
		sites []string
		want  string
	}{
		{nil, `("src" =~ /^.*$/ OR "dst" =~ /^.*$/)`},
		{[]string{"ps.site-1.example"}, `("src" =~ /^ps\.site-1\.example$/ OR "dst" =~ /^ps\.site-1\.example$/)`},
		{[]string{"a.cern.ch", "b.fnal.gov"}, `("src" =~ /^(a\.cern\.ch|b\.fnal\.gov)$/ OR "dst" =~ /^(a\.cern\.ch|b\.fnal\.gov)$/)`},
	} {
		db := &tenMinutes{}
		b := &Report{C: db, Range: dashboards.Range{From: to.Add(-30 * time.Minute), To: to}, Sites: c.sites}
		if _, err := b.Build(context.Background(), dashboardsDir(), "", "", 8); err != nil {
			t.Fatal(err)
		}
		qs := linkQueries(db.asked)
		if len(qs) < 4 { // throughput ÷ baseline (2), loss, the link list, alert events
			t.Fatalf("sites %q: %d link queries asked: %q", c.sites, len(qs), db.asked)
		}
		for _, q := range qs {
			if !strings.Contains(q, c.want) {
				t.Errorf("sites %q: a link query without %s: %s", c.sites, c.want, q)
			}
		}
	}
}

func TestAnEmptyPanelSaysWhichSites(t *testing.T) {
	for sites, want := range map[string]string{
		"ps.site-1.example": " for site ps.site-1.example",
		"a,b":               " for sites a, b",
		"a,b,c,d,e":         " for 5 sites (a, b, c, …)",
	} {
		if got := (Scope{Sites: strings.Split(sites, ",")}).of(); got != want {
			t.Errorf("%s: of() = %q, want %q", sites, got, want)
		}
	}
	if got := (Scope{Src: "a", Dst: "b", Sites: []string{"x"}}).of(); got != " for a → b" {
		t.Errorf("a link's scope beats its sites': %q", got)
	}
}
