package path

import (
	"strings"
	"testing"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit/golden"
)

// The pScheduler cases are real traceroute captures turned into archive messages with
// pScheduler's own traceroute parsing (testdata/pscheduler/README.md).
var parsePSCase = golden.PScheduler(ParsePScheduler)

func TestPSchedulerTraceGolden(t *testing.T) {
	golden.Run(t, "testdata/pscheduler", parsePSCase)
}

func TestPSchedulerTraceRefusesWhatItCannotMap(t *testing.T) {
	head := `{"test":{"type":"trace","spec":{"source":"a","dest":"10.0.0.1"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":`
	for res, want := range map[string]string{
		`{"succeeded":true,"paths":[[{"ip":"10.0.0.1","rtt":"0.5 ms"}]]}`:                    "JSON path result.paths[0][0].rtt",
		`{"succeeded":true,"paths":[[{"ip":"10.0.0.1","rtt":"PT0.1S","error":"gremlins"}]]}`: "result.paths[0][0].error",
		`{"succeeded":true,"paths":[` + strings.Repeat(`[],`, 32) + `[]]}`:                   "result.paths: 33 paths: want at most 32",
		`{"succeeded":true,"paths":[[{"ip":1}]]}`:                                            "JSON path result.paths.ip",
	} {
		_, err := ParsePScheduler([]byte(head+res+"}"), (golden.Case{}).MustMeta())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", res, err, want)
		}
	}
	ss, err := ParsePScheduler([]byte(head+`{"succeeded":false,"error":"traceroute: connect: No route to host"}}`), (golden.Case{}).MustMeta())
	if err != nil || ss[0].(*sample.Path).Error.Class != sample.ErrNoRoute {
		t.Fatalf("%v %v", ss, err)
	}
}

func FuzzPSchedulerTrace(f *testing.F) {
	golden.Fuzz(f, parsePSCase, nil, nil, "testdata/pscheduler")
}

// pScheduler's traceroute tool writes traceroute -A's AS as a bare number when its own AS
// lookup does not answer; the schema's form is {"number", "owner"}. Both read.
func TestPSchedulerTraceASAsObjectOrBareNumber(t *testing.T) {
	head := `{"test":{"type":"trace","spec":{"source":"a","dest":"10.0.0.1"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true,"paths":[[`
	for hop, want := range map[string]int64{
		`{"ip":"10.0.0.1","as":{"number":64500,"owner":"EXAMPLE-NET"}}`: 64500,
		`{"ip":"10.0.0.1","as":{"number":64501.0}}`:                     64501,
		`{"ip":"10.0.0.1","as":64502}`:                                  64502,
	} {
		ss, err := ParsePScheduler([]byte(head+hop+"]]}}"), (golden.Case{}).MustMeta())
		if err != nil {
			t.Fatalf("%s: %v", hop, err)
		}
		if asn := ss[0].(*sample.Path).Hops[0].Probes[0].ASN; asn == nil || *asn != want {
			t.Errorf("%s: asn %v, want %d", hop, asn, want)
		}
	}
}

// The schema requires no field of a hop: what a hop without an ip carries is kept.
func TestPSchedulerTraceHopWithoutIPKeepsItsFields(t *testing.T) {
	in := `{"test":{"type":"trace","spec":{"source":"a","dest":"10.0.0.1"}},"schedule":{"start":"2026-11-21T05:52:38Z"},"result":{"succeeded":true,"paths":[[{"hostname":"r1.example.net","rtt":"PT0.0015S","error":"net-unreachable"}]]}}`
	ss, err := ParsePScheduler([]byte(in), (golden.Case{}).MustMeta())
	if err != nil {
		t.Fatal(err)
	}
	pr := ss[0].(*sample.Path).Hops[0].Probes[0]
	if pr.Addr != nil || *pr.Name != "r1.example.net" || *pr.RTTMs != 1.5 || *pr.Annotation != "!N" {
		t.Fatalf("%+v", pr)
	}
}
