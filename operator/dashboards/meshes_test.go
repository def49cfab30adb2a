package dashboards

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestARawVariableGoesInAsItIs(t *testing.T) {
	r := Range{anchor, anchor}
	m := Mesh{Name: "wlcg", Addresses: []string{"psonar1.cern.ch", "ccperfsonar1.in2p3.fr"}}
	q, err := Expand(`"src" =~ /^${mesh:raw}$/ AND "dst" =~ /^$site$/`, r, 100, map[string]string{"mesh": m.Value(), "site": AllValue})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"src" =~ /^(psonar1\.cern\.ch|ccperfsonar1\.in2p3\.fr)$/ AND "dst" =~ /^.*$/`; q != want {
		t.Fatalf("got  %s\nwant %s", q, want)
	}
	if _, err := Expand(`/^${mesh:raw}$/`, r, 100, map[string]string{"mesh": Values("a", "b")}); err == nil || !strings.Contains(err.Error(), "mesh") {
		t.Fatalf("several values taken as they are: %v", err)
	}
	if _, err := Expand(`/^${mesh:raw}$/`, r, 100, map[string]string{}); err == nil || !strings.Contains(err.Error(), "mesh") {
		t.Fatalf("an undefined raw variable: %v", err)
	}
}

// A mesh's value matches its addresses alone, as InfluxDB (Go's regexp) reads /^…$/.
func TestAMeshsValueMatchesItsAddressesAlone(t *testing.T) {
	m := Mesh{Name: "opn", Addresses: []string{"ps.cern.ch", "2001:db8::1", "a+b.example"}}
	re := regexp.MustCompile("^" + m.Value() + "$")
	for _, a := range m.Addresses {
		if !re.MatchString(a) {
			t.Errorf("%s not matched by %s", a, m.Value())
		}
	}
	for _, other := range []string{"psXcern.ch", "ps.cern.ch.evil", "aab.example", "2001:db8::10", ""} {
		if re.MatchString(other) {
			t.Errorf("%s matched by %s", other, m.Value())
		}
	}
}

func TestTheMeshVariableOffersAllAndEachMesh(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(dashboardsDir(), "mesh-overview.json"))
	if err != nil {
		t.Fatal(err)
	}
	meshes := []Mesh{{"wlcg, tier 1", []string{"a.example", "b.example"}}, {"lhcone", []string{"c.example"}}}
	out, ok, err := WithMeshes(raw, meshes)
	if err != nil || !ok {
		t.Fatalf("%v %v", ok, err)
	}
	var b struct {
		Templating struct{ List []json.RawMessage }
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Name, Type, Query string
		Options           []struct{ Text, Value string }
		Current           struct{ Text, Value string }
	}
	if err := json.Unmarshal(b.Templating.List[0], &v); err != nil {
		t.Fatal(err)
	}
	if v.Name != MeshVariable || v.Type != "custom" || v.Current.Text != "All" || v.Current.Value != AllValue {
		t.Fatalf("variable %+v", v)
	}
	if want := `All : .*,wlcg\, tier 1 : (a\.example|b\.example),lhcone : (c\.example)`; v.Query != want {
		t.Errorf("query %s\nwant  %s", v.Query, want)
	}
	if len(v.Options) != 3 || v.Options[1].Text != "wlcg, tier 1" || v.Options[2].Value != `(c\.example)` {
		t.Errorf("options %+v", v.Options)
	}
	// the rest of the dashboard is the committed one
	var before, after map[string]any
	_ = json.Unmarshal(raw, &before)
	_ = json.Unmarshal(out, &after)
	bp, _ := json.Marshal(before["panels"])
	ap, _ := json.Marshal(after["panels"])
	if string(bp) != string(ap) {
		t.Error("the panels changed")
	}

	detail, err := os.ReadFile(filepath.Join(dashboardsDir(), "link-detail.json"))
	if err != nil {
		t.Fatal(err)
	}
	if same, ok, err := WithMeshes(detail, meshes); ok || err != nil || string(same) != string(detail) {
		t.Errorf("a dashboard without the mesh variable: %v %v", ok, err)
	}
	for _, bad := range [][]Mesh{{{"empty", nil}}, {{"x", []string{"a"}}, {"x", []string{"b"}}}, {{"All", []string{"a"}}}} {
		if _, _, err := WithMeshes(raw, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func TestFleetVarsAreEveryMeshAndTheSitesGiven(t *testing.T) {
	if v := FleetVars(); v[MeshVariable] != AllValue || v[SiteVariable] != AllValue || len(v) != 2 {
		t.Errorf("all: %v", v)
	}
	if v := FleetVars("a", "b"); v[SiteVariable] != Values("a", "b") || v[MeshVariable] != AllValue {
		t.Errorf("two sites: %v", v)
	}
}
