package alerting

import (
	"regexp"
	"strings"
	"testing"
	"text/template"
	"time"

	"longhaul/ingest/contract"
)

// alerting/templates/longhaul.tmpl rendered on the bridge's own alerts, with the shape and the
// functions of Alertmanager's template data (notify/template: Data, Alerts.Firing/Resolved) that
// the file uses. Alertmanager itself renders the same file on the stack (alerting/README.md).

type tmplAlert struct {
	Status      string
	Labels      map[string]string
	Annotations map[string]string
	StartsAt    time.Time
	EndsAt      time.Time
}

type tmplAlerts []tmplAlert

func (as tmplAlerts) Firing() tmplAlerts   { return as.with("firing") }
func (as tmplAlerts) Resolved() tmplAlerts { return as.with("resolved") }
func (as tmplAlerts) with(status string) tmplAlerts {
	var out tmplAlerts
	for _, a := range as {
		if a.Status == status {
			out = append(out, a)
		}
	}
	return out
}

type tmplData struct {
	Status            string
	Alerts            tmplAlerts
	CommonLabels      map[string]string
	CommonAnnotations map[string]string
}

func renderMail(t *testing.T, status string, alerts ...Alert) (subject, text string) {
	t.Helper()
	tmpl := template.New("").Funcs(template.FuncMap{
		"toUpper":      strings.ToUpper,
		"reReplaceAll": func(pat, repl, text string) string { return regexp.MustCompile(pat).ReplaceAllString(text, repl) },
	})
	if _, err := tmpl.ParseFiles("../../alerting/templates/longhaul.tmpl"); err != nil {
		t.Fatal(err)
	}
	d := tmplData{Status: status}
	common := func(get func(Alert) map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range get(alerts[0]) {
			same := true
			for _, a := range alerts[1:] {
				same = same && get(a)[k] == v
			}
			if same {
				out[k] = v
			}
		}
		return out
	}
	d.CommonLabels = common(func(a Alert) map[string]string { return a.Labels })
	d.CommonAnnotations = common(func(a Alert) map[string]string { return a.Annotations })
	for _, a := range alerts {
		d.Alerts = append(d.Alerts, tmplAlert{Status: status, Labels: a.Labels, Annotations: a.Annotations, StartsAt: a.StartsAt, EndsAt: a.EndsAt})
	}
	var s, b strings.Builder
	if err := tmpl.ExecuteTemplate(&s, "longhaul.subject", d); err != nil {
		t.Fatal(err)
	}
	if err := tmpl.ExecuteTemplate(&b, "longhaul.text", d); err != nil {
		t.Fatal(err)
	}
	return s.String(), b.String()
}

func TestAnIncidentMailNamesTheLocationFirstAndListsItsLinks(t *testing.T) {
	s := testState()
	e := incident(contract.KindIncidentOpened, 0, hop, link("s1", "d1", "throughput_collapse"), link("s2", "d1", "high_loss", "unreachable"))
	a := s.Apply(e).Firing[0]
	subject, text := renderMail(t, "firing", a)
	if subject != "[FIRING] Incident at hop 198.18.50.1 (AS 64512): 2 links" {
		t.Errorf("subject %q", subject)
	}
	want := "Incident at hop 198.18.50.1 (AS 64512): 2 links  [critical]\n" +
		"  links through hop 198.18.50.1 (AS 64512) are degraded\n" +
		"  since 2026-11-24T10:00:00Z\n" +
		"  incident inc-1 (longhaul silence --incident inc-1 --for 2h --comment TEXT)\n" +
		"  links (their own alerts are muted while the incident is open):\n" +
		"    s1 → d1 (throughput_collapse)\n" +
		"    s2 → d1 (high_loss, unreachable)\n" +
		"  dashboard: http://grafana:3000/d/longhaul-mesh?from=now-24h&to=now\n" +
		"  report: longhaul report --since 24h -o report.html\n"
	if !strings.Contains(text, want) {
		t.Errorf("text:\n%s\nwant within it:\n%s", text, want)
	}
	subject, text = renderMail(t, "resolved", a.resolved(t0.Add(time.Hour)))
	if subject != "[RESOLVED] Incident at hop 198.18.50.1 (AS 64512): 2 links" ||
		!strings.Contains(text, "since 2026-11-24T10:00:00Z, resolved 2026-11-24T11:00:00Z\n  incident inc-1\n  links:\n    s1 → d1") {
		t.Errorf("resolved: %q\n%s", subject, text)
	}
}

func TestALinkMailIsAsBefore(t *testing.T) {
	s := testState()
	a := s.Apply(ev(contract.KindThroughputCollapse, "s1", "dst-a", 0, "e-1")).Firing[0]
	subject, text := renderMail(t, "firing", a)
	if subject != "[FIRING:1] throughput_collapse at SITE-A" {
		t.Errorf("subject %q", subject)
	}
	if !strings.Contains(text, "s1 → dst-a  [critical, tcp-main]\n  throughput_collapse s1 → dst-a\n  baseline 95 Mbit/s, now 5 Mbit/s (-94.7 %)\n") {
		t.Errorf("text:\n%s", text)
	}
}
