package psbridge

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"longhaul/ingest/contract"
	"longhaul/probes/all"
	"longhaul/probes/probekit"
)

// pScheduler's participants programs' own answers (testdata/participants/README.md).
func TestTheParticipatingEndsArePSchedulersParticipants(t *testing.T) {
	f, err := os.Open("testdata/participants/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var c struct {
			Type   string          `json:"type"`
			Spec   json.RawMessage `json:"spec"`
			Answer struct {
				Participants []*string `json:"participants"`
			} `json:"answer"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		var ends struct {
			Source     string `json:"source"`
			Dest       string `json:"dest"`
			SourceNode string `json:"source-node"`
			DestNode   string `json:"dest-node"`
		}
		if err := json.Unmarshal(c.Spec, &ends); err != nil {
			t.Fatal(err)
		}
		var want Sides
		for _, p := range c.Answer.Participants {
			switch {
			case p == nil: // the host the task was given to: its source
				want.Source = true
			case slices.Contains([]string{ends.Source, ends.SourceNode}, *p):
				want.Source = true
			case slices.Contains([]string{ends.Dest, ends.DestNode}, *p):
				want.Dest = true
			default:
				t.Fatalf("%s: participant %q is neither end", sc.Text(), *p)
			}
		}
		a := &probekit.Archive{}
		a.Test.Type, a.Test.Spec = c.Type, c.Spec
		if got := participants(a); got != want {
			t.Errorf("%s %s: %v, pScheduler says %v", c.Type, c.Spec, got, want)
		}
	}
	if n < 15 {
		t.Fatalf("%d cases read", n)
	}
}

// The job takes a bridge's sample by its dst, not its src, for the tests pScheduler may run at
// their destination (contract.OwnTopicBridgeDestProbes): exactly those whose participants can
// include the destination by this rule.
func TestTheContractsDestinationRunTestsAreTheParticipantsRule(t *testing.T) {
	var dest []string
	types := []string{"clock", "dns"} // two Longhaul takes none of: they run at their source
	for _, t := range all.PSchedulerTests {
		types = append(types, t.Type)
	}
	for _, typ := range types {
		for _, spec := range []string{`{}`, `{"flip": true}`} {
			a := &probekit.Archive{}
			a.Test.Type, a.Test.Spec = typ, json.RawMessage(spec)
			if participants(a).Dest {
				dest = append(dest, ProbeIDPrefix+typ)
				break
			}
		}
	}
	want := slices.Clone(contract.OwnTopicBridgeDestProbes)
	slices.Sort(want)
	slices.Sort(dest)
	if !slices.Equal(dest, want) {
		t.Fatalf("destination-run tests %v, the contract's bridge_dest_probes %v", dest, want)
	}
}
