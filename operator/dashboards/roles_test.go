package dashboards

import "testing"

func TestPanelsAreFoundByWhatTheyShow(t *testing.T) {
	alerts, err := LoadUID(dashboardsDir(), "longhaul-alerts")
	if err != nil {
		t.Fatal(err)
	}
	if p := alerts.Find(IsEventList); p == nil || p.Title != "Recent events" {
		t.Fatalf("event list: %+v", p)
	}
	mesh, err := LoadUID(dashboardsDir(), "longhaul-mesh")
	if err != nil {
		t.Fatal(err)
	}
	p := mesh.Find(IsLinkList)
	if p == nil || p.Transform("groupingToMatrix") != nil || Reads(p.Targets[0].Query) != "link_stats" {
		t.Fatalf("link list: %+v", p)
	}
	if mesh.Find(IsEventList) != nil {
		t.Fatal("the mesh overview's per-link event counts or incidents were taken for an event list")
	}
	if p := mesh.Find(IsIncidentList); p == nil || p.ID != mesh.Panels[0].ID {
		t.Fatalf("the mesh overview opens with the incidents: %+v", p)
	}
	if alerts.Find(IsIncidentList) != nil {
		t.Fatal("the alerts dashboard's event list was taken for the incidents")
	}
}

func TestReadsNamesTheMeasurement(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT x FROM "raw"."link_stats" WHERE a`: "link_stats",
		`SELECT x FROM "events"`:                   "events",
		`SHOW TAG VALUES WITH KEY = "src"`:         "",
	} {
		if got := Reads(q); got != want {
			t.Errorf("Reads(%q) = %q, want %q", q, got, want)
		}
	}
}
