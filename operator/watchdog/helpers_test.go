package watchdog

import (
	"fmt"
	"testing"
	"time"

	"longhaul/ingest/contract"
	"longhaul/ingest/schema"
)

var t0 = time.UnixMilli(1795466888000).UTC()

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func bad(component, subject string) Finding {
	return Finding{Component: component, Subject: subject, Message: component + " is bad", Evidence: map[string]any{"n": 1}}
}

func good(component, subject string) Finding {
	return Finding{Component: component, Subject: subject, Healthy: true, Message: component + " is fine"}
}

// validEvent fails the test unless e is a valid message of the event schema the watchdog writes.
func validEvent(t *testing.T, e Event) {
	t.Helper()
	reg, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.ValidateAs(fmt.Sprintf("%s.v%d", contract.SchemaEvents, contract.VersionEvents), e.Marshal()); err != nil {
		t.Fatalf("%s: %v", e.Marshal(), err)
	}
}
