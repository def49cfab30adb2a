package alerting

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// TeamReceiverPrefix names the receiver of each team's incidents: "team-<name>".
const TeamReceiverPrefix = "team-"

// TeamRoutes is an Alertmanager config (alerting/alertmanager.yml, filled in or not) with a route
// and a receiver per team of c: a route matching the team's incidents, grouped like the
// incident route and with `continue: true` so the operators get the page too, placed before the
// incident route; a receiver that mails the team's email and posts to its webhook (url_file),
// shaped like the `operators` receiver (same subject, text, send_resolved). Team routes and
// receivers already there are replaced, so running it again after a contacts change is safe.
func TeamRoutes(config []byte, c Contacts) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(config, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not an Alertmanager config")
	}
	root := doc.Content[0]
	routes := get(get(root, "route"), "routes")
	receivers := get(root, "receivers")
	if routes == nil || routes.Kind != yaml.SequenceNode || receivers == nil || receivers.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("no route.routes or receivers list")
	}
	incidentMatcher := fmt.Sprintf(`%s="%s"`, LabelAlertname, "incident_opened")
	var kept []*yaml.Node
	at := -1
	for _, r := range routes.Content {
		ms := scalars(get(r, "matchers"))
		if hasPrefix(ms, LabelTeam+"=") {
			continue // a team route of an earlier run
		}
		if at < 0 && len(ms) == 1 && ms[0] == incidentMatcher {
			at = len(kept)
		}
		kept = append(kept, r)
	}
	if at < 0 {
		return nil, fmt.Errorf("no route with matchers ['%s'] to put the team routes before", incidentMatcher)
	}
	var operators *yaml.Node
	var keptReceivers []*yaml.Node
	for _, r := range receivers.Content {
		name := get(r, "name")
		if name != nil && strings.HasPrefix(name.Value, TeamReceiverPrefix) {
			continue
		}
		if name != nil && name.Value == "operators" {
			operators = r
		}
		keptReceivers = append(keptReceivers, r)
	}
	if operators == nil {
		return nil, fmt.Errorf("no `operators` receiver to shape the teams' receivers on")
	}
	var teamRoutes []*yaml.Node
	for _, t := range c.Teams {
		r := mapping("matchers", flow(seq(quoted(incidentMatcher), quoted(fmt.Sprintf(`%s="%s"`, LabelTeam, t.Name)))),
			"group_by", get(kept[at], "group_by"),
			"receiver", plain(TeamReceiverPrefix+t.Name),
			"continue", plain("true"))
		teamRoutes = append(teamRoutes, r)
		keptReceivers = append(keptReceivers, teamReceiver(t, operators))
	}
	routes.Content = append(append(append([]*yaml.Node{}, kept[:at]...), teamRoutes...), kept[at:]...)
	receivers.Content = keptReceivers
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// teamReceiver mails and posts like the operators receiver, to the team's address and webhook.
func teamReceiver(t Team, operators *yaml.Node) *yaml.Node {
	r := mapping("name", plain(TeamReceiverPrefix+t.Name))
	if email := first(get(operators, "email_configs")); t.Email != "" && email != nil {
		r.Content = append(r.Content, plain("email_configs"), seq(with(email, "to", quoted(t.Email))))
	}
	if hook := first(get(operators, "webhook_configs")); t.WebhookURLFile != "" && hook != nil {
		h := with(hook, "url_file", quoted(t.WebhookURLFile))
		drop(h, "url")
		r.Content = append(r.Content, plain("webhook_configs"), seq(h))
	}
	return r
}

func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func first(s *yaml.Node) *yaml.Node {
	if s == nil || s.Kind != yaml.SequenceNode || len(s.Content) == 0 {
		return nil
	}
	return s.Content[0]
}

// with is a copy of mapping m with key set to v (added at the front when absent).
func with(m *yaml.Node, key string, v *yaml.Node) *yaml.Node {
	c := *m
	c.Content = append([]*yaml.Node{}, m.Content...)
	for i := 0; i+1 < len(c.Content); i += 2 {
		if c.Content[i].Value == key {
			c.Content[i+1] = v
			return &c
		}
	}
	c.Content = append([]*yaml.Node{plain(key), v}, c.Content...)
	return &c
}

func drop(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func scalars(s *yaml.Node) []string {
	var out []string
	if s != nil {
		for _, n := range s.Content {
			out = append(out, n.Value)
		}
	}
	return out
}

func hasPrefix(ss []string, prefix string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func plain(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func quoted(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Style: yaml.SingleQuotedStyle}
}

func seq(items ...*yaml.Node) *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Content: items} }

func flow(n *yaml.Node) *yaml.Node { n.Style = yaml.FlowStyle; return n }

func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		v, _ := kv[i+1].(*yaml.Node)
		if v == nil {
			continue
		}
		m.Content = append(m.Content, plain(kv[i].(string)), v)
	}
	return m
}
