package alerting

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/contract"
)

// The shipped Alertmanager config routes, groups and inhibits on the labels the bridge sets, and
// names alerts the bridge posts: a label renamed on one side only would silently route nothing.

type amRoute struct {
	Receiver  string    `yaml:"receiver"`
	Matchers  []string  `yaml:"matchers"`
	GroupBy   []string  `yaml:"group_by"`
	GroupWait string    `yaml:"group_wait"`
	Routes    []amRoute `yaml:"routes"`
}

type amConfig struct {
	Route        amRoute `yaml:"route"`
	InhibitRules []struct {
		Source []string `yaml:"source_matchers"`
		Target []string `yaml:"target_matchers"`
		Equal  []string `yaml:"equal"`
	} `yaml:"inhibit_rules"`
	Receivers []map[string]any `yaml:"receivers"`
}

var matcherRE = regexp.MustCompile(`^([a-zA-Z_][a-zA-Z0-9_]*)(=~|!~|!=|=)"(.*)"$`)

func loadAMConfig(t *testing.T) amConfig {
	t.Helper()
	b, err := os.ReadFile("../../alerting/alertmanager.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c amConfig
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// matcher splits `name="value"` (or =~ with alternatives a|b|c) into its name and values.
func matcher(t *testing.T, m string) (string, []string) {
	t.Helper()
	p := matcherRE.FindStringSubmatch(m)
	if p == nil {
		t.Fatalf("matcher %q: not name=\"value\"", m)
	}
	if p[2] == "=~" || p[2] == "!~" {
		return p[1], strings.Split(p[3], "|")
	}
	return p[1], []string{p[3]}
}

func TestAlertmanagerConfigUsesOnlyTheBridgesLabelsAndAlertnames(t *testing.T) {
	c := loadAMConfig(t)
	alertnames := []string{AlertIncidentMember, HeartbeatName}
	for _, k := range contract.EventKinds {
		if contract.IsAlert(k) || !contract.IsRecovery(k) && !contract.IsUpdate(k) {
			alertnames = append(alertnames, k) // alerts and notices (a recovery or update is never an alertname)
		}
	}
	check := func(where string, ms []string) {
		for _, m := range ms {
			name, values := matcher(t, m)
			if !slices.Contains(bridgeLabels, name) {
				t.Errorf("%s: %q matches label %s, which the bridge never sets", where, m, name)
			}
			for _, v := range values {
				if name == LabelAlertname && !slices.Contains(alertnames, v) {
					t.Errorf("%s: %q: no alert is named %s", where, m, v)
				}
				if name == LabelRole && !slices.Contains([]string{RoleAlert, RoleInfo, RoleMember}, v) {
					t.Errorf("%s: %q: no role %s", where, m, v)
				}
			}
		}
	}
	names := func(where string, ls []string) {
		for _, l := range ls {
			if !slices.Contains(bridgeLabels, l) {
				t.Errorf("%s: label %s, which the bridge never sets", where, l)
			}
		}
	}
	var walk func(string, amRoute)
	walk = func(where string, r amRoute) {
		check(where, r.Matchers)
		names(where+" group_by", r.GroupBy)
		for _, sub := range r.Routes {
			walk(where+" > "+strings.Join(sub.Matchers, ","), sub)
		}
	}
	walk("route", c.Route)
	for _, r := range c.InhibitRules {
		check("inhibit_rules source", r.Source)
		check("inhibit_rules target", r.Target)
		names("inhibit_rules equal", r.Equal)
	}
}

// correlatorKinds are the alert kinds the job's correlator takes as degrading a link
// (IncidentInput.DEGRADING), sorted.
func correlatorKinds(t *testing.T) []string {
	t.Helper()
	java, err := os.ReadFile("../../flink-jobs/src/main/java/org/longhaul/flink/functions/incident/IncidentInput.java")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`DEGRADING\s*=\s*EnumSet\.of\(([^)]*)\)`).FindSubmatch(java)
	if decl == nil {
		t.Fatal("IncidentInput.DEGRADING not found")
	}
	var degrading []string
	for _, m := range regexp.MustCompile(`EventKind\.([A-Z_]+)`).FindAllSubmatch(decl[1], -1) {
		degrading = append(degrading, strings.ToLower(string(m[1])))
	}
	sort.Strings(degrading)
	return degrading
}

// matchesKinds checks that matchers are one alertname matcher naming exactly the kinds.
func matchesKinds(t *testing.T, what string, matchers []string, kinds []string) {
	t.Helper()
	if len(matchers) != 1 {
		t.Fatalf("%s: matchers %v, want one", what, matchers)
	}
	name, got := matcher(t, matchers[0])
	sort.Strings(got)
	if name != LabelAlertname || !reflect.DeepEqual(got, kinds) {
		t.Errorf("%s matches %s %v, the correlator localises %v", what, name, got, kinds)
	}
}

// The link alerts an incident can explain wait LONGHAUL_ALERT_LINK_GROUP_WAIT for their first
// mail, so the incident's members can mute them first: the same kinds as the correlator's, and
// site_unreachable, which an incident at that site mutes.
func TestTheLinkAlertsAnIncidentCanExplainWaitForIt(t *testing.T) {
	explained := append(correlatorKinds(t), contract.KindSiteUnreachable)
	sort.Strings(explained)
	var waiting [][]string
	for _, r := range loadAMConfig(t).Route.Routes {
		if r.GroupWait == "${LONGHAUL_ALERT_LINK_GROUP_WAIT}" {
			waiting = append(waiting, r.Matchers)
		}
	}
	if len(waiting) != 2 {
		t.Fatalf("%d routes with group_wait ${LONGHAUL_ALERT_LINK_GROUP_WAIT}, want the link alerts' and the diagnoses'", len(waiting))
	}
	matchesKinds(t, "the route waiting for incidents", waiting[0], explained)
	matchesKinds(t, "the diagnoses' route", waiting[1], []string{contract.KindDiagnosis})
}

// A site lost to all its sources is the reachability detector's site_unreachable and the
// correlator's incident at that site: one page, the incident's (it mutes site_unreachable of its
// dst; a hop's or a host's incident has dst "*", which no site_unreachable has).
func TestAnIncidentAtASiteMutesThatSitesSiteUnreachable(t *testing.T) {
	for _, r := range loadAMConfig(t).InhibitRules {
		if len(r.Source) == 1 && r.Source[0] == `alertname="`+contract.KindIncidentOpened+`"` {
			if !reflect.DeepEqual(r.Target, []string{`alertname="` + contract.KindSiteUnreachable + `"`}) ||
				!reflect.DeepEqual(r.Equal, []string{LabelDst}) {
				t.Fatalf("the incidents' inhibit rule: %+v", r)
			}
			return
		}
	}
	t.Fatal("no inhibit rule with incident_opened as source: a lost site would page twice")
}

// The per-link kinds an incident's members inhibit are those the job's correlator takes as
// degrading a link (IncidentInput.DEGRADING): a kind it localises but Alertmanager does not mute
// would page twice, a kind muted but not localised would hide a fault no incident names. And the
// link's diagnosis, a notice about the same degradation (issue 48: it was mailed while the
// incident muted the link's alerts).
func TestIncidentMembersInhibitTheKindsTheCorrelatorExplainsOnTheirLinkOnly(t *testing.T) {
	degrading := append(correlatorKinds(t), contract.KindDiagnosis)
	sort.Strings(degrading)
	c := loadAMConfig(t)
	found := 0
	for _, r := range c.InhibitRules {
		if len(r.Source) != 1 || r.Source[0] != `alertname="`+AlertIncidentMember+`"` {
			continue
		}
		found++
		matchesKinds(t, "the members' inhibit rule", r.Target, degrading)
		if !reflect.DeepEqual(r.Equal, []string{LabelSrc, LabelDst}) {
			t.Errorf("members inhibit on equal %v, want [src dst]: their own link only", r.Equal)
		}
	}
	if found != 1 {
		t.Fatalf("%d inhibit rules with incident_member as source, want 1", found)
	}
	// members notify nobody: their route's receiver has no integration
	for _, r := range c.Route.Routes {
		if slices.Contains(r.Matchers, `alertname="`+AlertIncidentMember+`"`) {
			for _, rc := range c.Receivers {
				if rc["name"] == r.Receiver && len(rc) != 1 {
					t.Errorf("receiver %s of incident members notifies: %v", r.Receiver, rc)
				}
			}
			return
		}
	}
	t.Fatal("no route for incident members: they would be mailed")
}
