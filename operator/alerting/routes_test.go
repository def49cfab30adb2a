package alerting

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

func shippedConfig(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../alerting/alertmanager.yml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEachTeamGetsItsIncidentsBeforeTheOperatorsRouteAndTheOperatorsToo(t *testing.T) {
	out, err := TeamRoutes(shippedConfig(t), sampleContacts(t))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Route struct {
			Routes []struct {
				Matchers []string `yaml:"matchers"`
				GroupBy  []string `yaml:"group_by"`
				Receiver string   `yaml:"receiver"`
				Continue bool     `yaml:"continue"`
			} `yaml:"routes"`
		} `yaml:"route"`
		Receivers []struct {
			Name  string `yaml:"name"`
			Email []struct {
				To      string            `yaml:"to"`
				Headers map[string]string `yaml:"headers"`
			} `yaml:"email_configs"`
			Webhook []map[string]any `yaml:"webhook_configs"`
		} `yaml:"receivers"`
	}
	if err := yaml.Unmarshal(out, &c); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range c.Route.Routes {
		order = append(order, r.Receiver)
		if r.Receiver == "team-carrier-64512" {
			if !reflect.DeepEqual(r.Matchers, []string{`alertname="incident_opened"`, `team="carrier-64512"`}) || !r.Continue ||
				!reflect.DeepEqual(r.GroupBy, []string{"alertname", "incident"}) {
				t.Errorf("team route %+v", r)
			}
			for _, m := range r.Matchers {
				if name, _ := matcher(t, m); name != LabelAlertname && name != LabelTeam {
					t.Errorf("matcher %s", m)
				}
			}
		}
	}
	want := []string{"deadman", "nobody", "team-in2p3-noc", "team-carrier-64512", "operators", "operators", "operators-notices", "operators", "operators-notices"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("routes to %v, want %v (the teams' before the incident route, which still pages the operators)", order, want)
	}
	teams := map[string]int{}
	for i, r := range c.Receivers {
		teams[r.Name] = i
	}
	in2p3 := c.Receivers[teams["team-in2p3-noc"]]
	if len(in2p3.Email) != 1 || in2p3.Email[0].To != "noc@in2p3.example" || in2p3.Email[0].Headers["Subject"] != `{{ template "longhaul.subject" . }}` {
		t.Errorf("in2p3 mail %+v", in2p3.Email)
	}
	if len(in2p3.Webhook) != 1 || in2p3.Webhook[0]["url_file"] != "/etc/longhaul/secrets/in2p3-noc.webhook" || in2p3.Webhook[0]["url"] != nil {
		t.Errorf("in2p3 webhook %+v: the URL is read from its file, never written here", in2p3.Webhook)
	}
	if carrier := c.Receivers[teams["team-carrier-64512"]]; len(carrier.Webhook) != 0 || carrier.Email[0].To != "noc@carrier.example" {
		t.Errorf("carrier %+v: mail only", carrier)
	}
	// run again (contacts changed): the old team routes are replaced, not doubled
	again, err := TeamRoutes(out, sampleContacts(t))
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second run changed the config (%v):\n%s", err, again)
	}
	none, err := TeamRoutes(out, Contacts{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(none, []byte(TeamReceiverPrefix)) || bytes.Contains(none, []byte(`team="`)) {
		t.Errorf("no teams: no team route or receiver left:\n%s", none)
	}
}

func TestTeamRoutesNeedTheIncidentRouteAndTheOperatorsReceiver(t *testing.T) {
	for _, cfg := range []string{
		"route:\n  routes:\n    - matchers: ['alertname=\"x\"']\nreceivers:\n  - name: operators\n",
		"route:\n  routes:\n    - matchers: ['alertname=\"incident_opened\"']\nreceivers:\n  - name: other\n",
		"just text",
	} {
		if _, err := TeamRoutes([]byte(cfg), sampleContacts(t)); err == nil {
			t.Errorf("accepted %q", cfg)
		}
	}
}
