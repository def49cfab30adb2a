package all

import (
	"reflect"
	"testing"

	"longhaul/probes/probe"
)

func TestEveryKindIsRegistered(t *testing.T) {
	want := []string{"host", "path", "rtt", "sweep", "throughput"}
	if got := probe.Kinds(); !reflect.DeepEqual(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
}
