// Package layout holds the test of the tree's doors: which of its rooms may import which.
package layout

import (
	"os/exec"
	"strings"
	"testing"
)

// The agent's tree (collectors/) never imports the operator's (operator/), tests included:
// what both need lives outside both (internal/kafkaadmin, ingest/contract). The other way is
// still open (the operator's import and pScheduler commands use the agent's parsers, pSConfig and
// bridge packages), so only this door is held.
func TestTheAgentsTreeImportsNothingOfTheOperators(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "integration",
		"-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`,
		"longhaul/collectors/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkgs++
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "longhaul/operator") {
				t.Errorf("%s imports %s", f[0], imp)
			}
		}
	}
	if pkgs < 20 {
		t.Fatalf("only %d packages listed:\n%s", pkgs, out)
	}
}
