package alerting

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"longhaul/operator/render"
)

// The annotations the bridge writes; alerting/templates/longhaul.tmpl prints them.
const (
	AnnSummary   = "summary"         // the event's message
	AnnBaseline  = "baseline_vs_now" // e.g. "baseline 557 Mbit/s ± 30 Mbit/s over 48 runs, now 2.5 Mbit/s (-99.6 %)"
	AnnSince     = "since"           // when the episode began, RFC 3339
	AnnDiagnosis = "diagnosis"       // the link's latest diagnosis event
	AnnDashboard = "dashboard"       // the Link detail dashboard of the link
	AnnReport    = "report"          // the `longhaul report` command for the link
	AnnEpisode   = "episode_id"
	AnnEvidence  = "evidence"    // every evidence field, name=value, sorted
	AnnLinks     = "links"       // site-wide alerts: the per-link alerts open on the site; incidents: the links it explains, one a line
	AnnLocation  = "location"    // incidents: "hop 198.18.50.1 (AS 64512)", "site dst-a", "host src-1"
	AnnHeadline  = "headline"    // incidents: "Incident at hop 198.18.50.1 (AS 64512): 4 links", the mail's subject
	AnnPipeline  = "pipeline"    // set while the pipeline itself is degraded: link state unknown
	AnnRunbook   = "runbook_url" // docs of the alert kind
)

// Describer writes an alert's annotations: the links to Grafana and to docs are deployment
// settings.
type Describer struct {
	// GrafanaURL is Grafana's base URL ("" for no dashboard link), LinkDashboard the uid of the
	// Link detail dashboard (operator/results.LinkDashboard), MeshDashboard the Mesh overview's,
	// which opens with the incidents (operator/results.MeshDashboard).
	GrafanaURL    string
	LinkDashboard string
	MeshDashboard string
	// RunbookURL, when set, is a base to which "#<alertname>" is added.
	RunbookURL string
}

// annotations of an alert or info event.
func (d Describer) annotations(e Event, since time.Time) map[string]string {
	a := map[string]string{AnnSummary: e.Message, AnnSince: since.UTC().Format(time.RFC3339)}
	if s := baselineVsNow(e); s != "" {
		a[AnnBaseline] = s
	}
	if e.EpisodeID != "" {
		a[AnnEpisode] = e.EpisodeID
	}
	if s := evidenceLine(e.Evidence); s != "" {
		a[AnnEvidence] = s
	}
	if e.Src != Wildcard && e.Dst != Wildcard {
		if u := d.dashboardURL(e.Src, e.Dst); u != "" {
			a[AnnDashboard] = u
		}
		a[AnnReport] = fmt.Sprintf("longhaul report --src %s --dst %s --since 24h -o report.html", e.Src, e.Dst)
	}
	if d.RunbookURL != "" {
		a[AnnRunbook] = d.RunbookURL + "#" + e.Kind
	}
	if e.Incident() {
		a[AnnLocation] = e.Location.String()
		a[AnnHeadline] = incidentHeadline(e)
		a[AnnLinks] = incidentLinks(e.Links)
		if s := evidenceLine(withoutLinkList(e.Evidence)); s != "" { // the links are listed above it
			a[AnnEvidence] = s
		}
		if u := d.meshURL(); u != "" {
			a[AnnDashboard] = u
		}
		a[AnnReport] = "longhaul report --since 24h -o report.html" // its first section: the incidents
	}
	return a
}

// withoutLinkList is an incident's evidence without link_list, the links as one string (for
// InfluxDB), which the mail lists one a line.
func withoutLinkList(ev map[string]any) map[string]any {
	out := make(map[string]any, len(ev))
	for k, v := range ev {
		if k != "link_list" {
			out[k] = v
		}
	}
	return out
}

// meshURL is the Mesh overview over the last 24 h: its first panel is the incidents.
func (d Describer) meshURL() string {
	if d.GrafanaURL == "" || d.MeshDashboard == "" {
		return ""
	}
	return strings.TrimRight(d.GrafanaURL, "/") + "/d/" + d.MeshDashboard + "?" + url.Values{"from": {"now-24h"}, "to": {"now"}}.Encode()
}

// incidentHeadline names the location first, then how many links it explains.
func incidentHeadline(e Event) string {
	n := fmt.Sprintf("%d links", len(e.Links))
	if len(e.Links) == 1 {
		n = "1 link"
	}
	return fmt.Sprintf("Incident at %s: %s", e.Location, n)
}

// incidentLinks is one line per link, "src → dst (kind, kind)", in the event's order.
func incidentLinks(links []Link) string {
	lines := make([]string, 0, len(links))
	for _, l := range links {
		line := l.Src + " → " + l.Dst
		if len(l.Kinds) > 0 {
			line += " (" + strings.Join(l.Kinds, ", ") + ")"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func (d Describer) dashboardURL(src, dst string) string {
	if d.GrafanaURL == "" || d.LinkDashboard == "" {
		return ""
	}
	q := url.Values{"var-src": {src}, "var-dst": {dst}, "from": {"now-24h"}, "to": {"now"}}
	return strings.TrimRight(d.GrafanaURL, "/") + "/d/" + d.LinkDashboard + "?" + q.Encode()
}

// baselineVsNow puts the event's "then" beside its "now" when its evidence has both. A
// collapse states the baseline the detector judged it against as the detector has it, with its
// spread and the runs it holds: the one the mesh matrix and the link detail show.
func baselineVsNow(e Event) string {
	num := e.EvidenceNumber
	if base, ok := num("baseline_bps"); ok {
		if now, ok := num("observed_bps"); ok {
			then := render.FormatValue(base, "bps")
			if spread, ok := num("baseline_stddev_bps"); ok {
				then += " ± " + render.FormatValue(spread, "bps")
				if runs, ok := num("history_runs"); ok {
					then += fmt.Sprintf(" over %.0f runs", runs)
				}
			}
			s := fmt.Sprintf("baseline %s, now %s", then, render.FormatValue(now, "bps"))
			if base > 0 {
				s += fmt.Sprintf(" (%+.1f %%)", (now-base)/base*100)
			}
			return s
		}
	}
	if before, ok := num("rtt_before_ms"); ok {
		if after, ok := num("rtt_after_ms"); ok {
			return fmt.Sprintf("RTT %s before, %s after", render.FormatValue(before, "ms"), render.FormatValue(after, "ms"))
		}
	}
	for _, p := range []struct{ value, limit, unit, what string }{
		{"loss_percent", "threshold_percent", "percent", "loss"},
		{"jitter_ms", "threshold_ms", "ms", "jitter"},
	} {
		if v, ok := num(p.value); ok {
			if lim, ok := num(p.limit); ok {
				return fmt.Sprintf("%s %s, alarm at %s", p.what, render.FormatValue(v, p.unit), render.FormatValue(lim, p.unit))
			}
		}
	}
	return ""
}

// evidenceLine is every evidence field as name=value, sorted by name.
func evidenceLine(ev map[string]any) string {
	names := make([]string, 0, len(ev))
	for n := range ev {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		v := fmt.Sprint(ev[n])
		if f, ok := ev[n].(float64); ok {
			v = strconv.FormatFloat(f, 'f', -1, 64)
			if math.Abs(f) >= 100 {
				v = strconv.FormatFloat(math.Round(f), 'f', -1, 64)
			} else if len(v) > 8 {
				v = strconv.FormatFloat(f, 'g', 4, 64)
			}
		}
		parts = append(parts, n+"="+v)
	}
	return strings.Join(parts, " ")
}
