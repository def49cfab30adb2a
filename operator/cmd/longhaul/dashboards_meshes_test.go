package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const wlcgTemplate = "../../../perfsonar/psconfig/testdata/wlcg/template.json"

func TestDashboardsMeshesWritesEveryDashboardWithTheTemplatesGroups(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "grafana", "longhaul")
	var out, errb strings.Builder
	if code := dispatch([]string{"dashboards", "meshes", "--psconfig", wlcgTemplate, "--out", dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `mesh "lhcone": 4 addresses`) || !strings.Contains(out.String(), "wrote 4 dashboards into "+dir+", 2 with the mesh variable") {
		t.Fatal(out.String())
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 4 {
		t.Fatalf("wrote %v", names)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "alerts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Templating struct {
			List []struct{ Name, Query string }
		}
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	q := b.Templating.List[0].Query
	// every group with an address that runs a test, by name
	if !strings.HasPrefix(q, "All : .*,cern-v6 : (") || !strings.Contains(q, `,lhcone : (lhcone-ps\.bnl\.gov|ps\.noagent\.example|psonar1\.cern\.ch|psonar2\.cern\.ch),wlcg-mesh : (`) {
		t.Fatalf("the mesh variable's query: %s", q)
	}

	errb.Reset()
	if code := dispatch([]string{"dashboards", "meshes", "--psconfig", wlcgTemplate, "--out", dir, "--group", "lhcopn"}, nil, &out, &errb); code == 0 ||
		!strings.Contains(errb.String(), `no group "lhcopn"`) {
		t.Fatalf("an unknown group: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := dispatch([]string{"dashboards", "meshes", "--out", dir}, nil, &out, &errb); code != 2 {
		t.Fatalf("without --psconfig: %d %s", code, errb.String())
	}
}
