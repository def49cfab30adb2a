package contract

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The generated kinds are the kind enum of the newest event schema, the same kinds in the same
// order, and each older version's enum is where they started (a prefix: kinds are only added): a
// kind added to a schema alone (or to contract.yaml alone) fails here.
func TestEventKindsEqualTheEventSchemaEnum(t *testing.T) {
	files, err := filepath.Glob("../schemas/event.v*.schema.json")
	if err != nil || len(files) < 2 {
		t.Fatalf("event schemas: %v %v", files, err)
	}
	newest := fmt.Sprintf("../schemas/%s.v%d.schema.json", SchemaEvents, VersionEvents)
	for _, f := range files {
		enum := kindEnum(t, f)
		if f == newest && !slices.Equal(EventKinds, enum) {
			t.Errorf("contract kinds %v\n%s enum  %v\nedit ingest/contract.yaml and the schema together, then run `go generate ./ingest/...`",
				EventKinds, filepath.Base(f), enum)
		}
		if len(enum) > len(EventKinds) || !slices.Equal(EventKinds[:len(enum)], enum) {
			t.Errorf("%s kinds %v are not where the contract's %v started", filepath.Base(f), enum, EventKinds)
		}
	}
}

func kindEnum(t *testing.T, file string) []string {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Kind struct {
				Enum []string `json:"enum"`
			} `json:"kind"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties.Kind.Enum
}

// Every alert has one recovery and every recovery closes one alert; nothing is both.
func TestRecoveryOfAndClosesAreInverse(t *testing.T) {
	for alert, rec := range RecoveryOf {
		if Closes[rec] != alert || !IsAlert(alert) || !IsRecovery(rec) || IsRecovery(alert) || IsAlert(rec) {
			t.Errorf("%s ↔ %s", alert, rec)
		}
	}
	if len(RecoveryOf) != len(Closes) {
		t.Errorf("%d alerts, %d recoveries", len(RecoveryOf), len(Closes))
	}
	if IsAlert(KindStall) || IsRecovery(KindRouteChange) {
		t.Error("info kinds open or close nothing")
	}
}
