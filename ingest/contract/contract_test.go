package contract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The generated kinds are the kind enum of every version of the event schema, the same kinds in
// the same order: a kind added to a schema alone (or to contract.yaml alone) fails here.
func TestEventKindsEqualTheEventSchemaEnum(t *testing.T) {
	files, err := filepath.Glob("../schemas/event.v*.schema.json")
	if err != nil || len(files) < 2 {
		t.Fatalf("event schemas: %v %v", files, err)
	}
	for _, f := range files {
		checkKindEnum(t, f)
	}
}

func checkKindEnum(t *testing.T, file string) {
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
	if !slices.Equal(EventKinds, s.Properties.Kind.Enum) {
		t.Errorf("contract kinds %v\n%s enum  %v\nedit ingest/contract.yaml and the schema together, then run `go generate ./ingest/...`",
			EventKinds, filepath.Base(file), s.Properties.Kind.Enum)
	}
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
