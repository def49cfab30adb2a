package dashboards

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MeshVariable is the name of the dashboards' mesh variable (dashboards/boards/common.py), whose
// value the queries take as it is: ${mesh:raw}.
const MeshVariable = "mesh"

// meshAll is the mesh variable's first choice: every link.
const meshAll = "All"

// Mesh is one choice of the mesh variable: a pSConfig group and the addresses its tests run
// between (psconfig.Template.GroupAddresses), which stand for it: no statistic carries a mesh.
type Mesh struct {
	Name      string
	Addresses []string
}

// Value is the mesh's value: a regex matching its addresses alone, as a multi-value variable of
// them would be written (Values), so /^${mesh:raw}$/ is what /^$site$/ is with those sites.
func (m Mesh) Value() string {
	escaped := make([]string, len(m.Addresses))
	for i, a := range m.Addresses {
		escaped[i] = escapeRegex(a)
	}
	return "(" + strings.Join(escaped, "|") + ")"
}

// WithMeshes is a dashboard's JSON with its mesh variable offering All and each of meshes, All
// chosen; false when the dashboard has no mesh variable (it is left as it is). A mesh without an
// address, or two of one name, is an error: Grafana would offer a choice that matches nothing, or
// one of the two.
func WithMeshes(board []byte, meshes []Mesh) ([]byte, bool, error) {
	var b map[string]any
	if err := json.Unmarshal(board, &b); err != nil {
		return nil, false, err
	}
	v := meshVariable(b)
	if v == nil {
		return board, false, nil
	}
	all := map[string]any{"text": meshAll, "value": AllValue, "selected": true}
	options := []any{all}
	query := []string{customOption(meshAll, AllValue)}
	seen := map[string]bool{meshAll: true}
	for _, m := range meshes {
		if len(m.Addresses) == 0 {
			return nil, false, fmt.Errorf("mesh %q has no address", m.Name)
		}
		if seen[m.Name] {
			return nil, false, fmt.Errorf("two meshes named %q", m.Name)
		}
		seen[m.Name] = true
		options = append(options, map[string]any{"text": m.Name, "value": m.Value(), "selected": false})
		query = append(query, customOption(m.Name, m.Value()))
	}
	v["options"] = options
	v["query"] = strings.Join(query, ",")
	v["current"] = all
	out, err := json.MarshalIndent(b, "", "  ")
	return append(out, '\n'), true, err
}

// meshVariable is the dashboard's mesh variable, nil when it has none.
func meshVariable(b map[string]any) map[string]any {
	templating, _ := b["templating"].(map[string]any)
	list, _ := templating["list"].([]any)
	for _, x := range list {
		if v, ok := x.(map[string]any); ok && v["name"] == MeshVariable && v["type"] == "custom" {
			return v
		}
	}
	return nil
}

// customOption is one choice of a Grafana custom variable's query, "text : value"; Grafana splits
// the query at commas not escaped, so a comma in a name is written \,.
func customOption(text, value string) string {
	return strings.ReplaceAll(text, ",", `\,`) + " : " + value
}

// SiteVariable is the name of the fleet views' site variable (dashboards/boards/common.py).
const SiteVariable = "site"

// FleetVars are the variables of the fleet's views (the Mesh overview, Alerts) for the links
// from or to sites (none: every link), in every mesh.
func FleetVars(sites ...string) map[string]string {
	site := AllValue
	if len(sites) > 0 {
		site = Values(sites...)
	}
	return map[string]string{MeshVariable: AllValue, SiteVariable: site}
}
