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
	for _, c := range []struct{ site, want string }{
		{"", `("src" =~ /^.*$/ OR "dst" =~ /^.*$/)`},
		{"ps.site-1.example", `("src" =~ /^ps\.site-1\.example$/ OR "dst" =~ /^ps\.site-1\.example$/)`},
	} {
		db := &tenMinutes{}
		b := &Report{C: db, Range: dashboards.Range{From: to.Add(-30 * time.Minute), To: to}, Site: c.site}
		if _, err := b.Build(context.Background(), dashboardsDir(), "", "", 8); err != nil {
			t.Fatal(err)
		}
		qs := linkQueries(db.asked)
		if len(qs) < 4 { // throughput ÷ baseline (2), loss, the link list, alert events
			t.Fatalf("site %q: %d link queries asked: %q", c.site, len(qs), db.asked)
		}
		for _, q := range qs {
			if !strings.Contains(q, c.want) {
				t.Errorf("site %q: a link query without %s: %s", c.site, c.want, q)
			}
		}
	}
}

func TestAnEmptySitesReportSaysWhichSite(t *testing.T) {
	s := Scope{Site: "ps.site-1.example"}
	if got := s.of(); got != " for site ps.site-1.example" {
		t.Errorf("of() = %q", got)
	}
	if got := (Scope{Src: "a", Dst: "b", Site: "x"}).of(); got != " for a → b" {
		t.Errorf("a link's scope beats its site's: %q", got)
	}
}
