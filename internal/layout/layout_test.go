// Package layout holds the test of the tree's doors: which of its rooms may import which.
package layout

import (
	"os/exec"
	"strings"
	"testing"
)

// The rooms: the agent (collectors/) and the operator (operator/) never import each other;
// what both need lives in rooms both may import and that import neither: the probes' tools
// and parsers (probes/), perfSONAR's pSConfig and pScheduler bridge (perfsonar/), the contract
// (ingest/) and the shared internals (internal/). Tests included.
var forbidden = map[string][]string{
	"longhaul/collectors/": {"longhaul/operator/"},
	"longhaul/operator/":   {"longhaul/collectors/"},
	"longhaul/probes/":     {"longhaul/collectors/", "longhaul/operator/", "longhaul/perfsonar/"},
	"longhaul/perfsonar/":  {"longhaul/collectors/", "longhaul/operator/"},
	"longhaul/ingest/":     {"longhaul/collectors/", "longhaul/operator/", "longhaul/probes/", "longhaul/perfsonar/"},
	"longhaul/internal/":   {"longhaul/collectors/", "longhaul/operator/", "longhaul/perfsonar/"},
}

func TestEachRoomImportsOnlyThroughItsDoors(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "integration",
		"-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`,
		"longhaul/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	rooms := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		for room, never := range forbidden {
			if !strings.HasPrefix(f[0], room) {
				continue
			}
			rooms[room]++
			for _, imp := range f[1:] {
				for _, n := range never {
					if strings.HasPrefix(imp, n) {
						t.Errorf("%s imports %s", f[0], imp)
					}
				}
			}
		}
	}
	for room, least := range map[string]int{"longhaul/collectors/": 6, "longhaul/operator/": 10, "longhaul/probes/": 9, "longhaul/perfsonar/": 2} {
		if rooms[room] < least {
			t.Fatalf("only %d packages of %s listed:\n%s", rooms[room], room, out)
		}
	}
}
