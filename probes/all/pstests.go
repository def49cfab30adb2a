package all

import (
	"encoding/json"
	"strings"

	"longhaul/probes/latency"
	"longhaul/probes/path"
	"longhaul/probes/probekit"
	"longhaul/probes/rtt"
	"longhaul/probes/throughput"
)

// PSchedulerTest is what Longhaul knows of one pScheduler test type whose results it takes. A
// new test type is one entry of PSchedulerTests, beside its importer in its kind's package (and,
// when its bare result has a shape of its own, a probekit.ResultShapes entry; when its
// destination may run it, the contract's own_topics.bridge_dest_probes, which a test holds to
// Participants; when an agent runs it from a pSConfig plan, psconfig's runner).
type PSchedulerTest struct {
	// Type is pScheduler's test.type.
	Type string
	// Import reads an archive message of the test (the http and kafka archivers', a run record
	// made one).
	Import Importer
	// FromArchive, when set, is Import of an archive message decoded already: the message is
	// not decoded again (ImportArchive).
	FromArchive probekit.ArchiveImporter
	// ReadsBare: Import reads a bare result of the test itself; otherwise a bare one is read as
	// the archive message it would be part of (bareAsArchive), when its shape says the test.
	ReadsBare bool
	// Participants is pScheduler's participants rule for a spec: which ends of the link run the
	// test (its plugin's `participants` program, pscheduler-test-<type>/<type>/participants).
	// Nil: the source alone.
	Participants func(spec map[string]json.RawMessage) (source, dest bool)
	// ByPScheduler: Longhaul runs no probe of it (one-way delay needs owamp at both ends); its
	// results come through the pScheduler bridge, and a pSConfig plan says so of its pairs.
	ByPScheduler bool
}

// PSchedulerTests are the test types whose results Longhaul imports and bridges, in the order
// messages name them.
var PSchedulerTests = []PSchedulerTest{
	{Type: "throughput", Import: throughput.ParsePScheduler, ReadsBare: true, Participants: bothUnlessSingleEnded},
	{Type: "trace", Import: path.ParsePScheduler, FromArchive: path.FromArchive},
	{Type: "rtt", Import: rtt.ParsePScheduler, FromArchive: rtt.FromArchive},
	{Type: "latency", Import: latency.ParsePScheduler, FromArchive: latency.FromArchive, Participants: oneSideByFlip, ByPScheduler: true},
	{Type: "latencybg", Import: latency.ParsePScheduler, FromArchive: latency.FromArchive, Participants: oneSideByFlip, ByPScheduler: true},
}

// PSchedulerTestOf is the entry of a test type, false when Longhaul takes none of its results.
func PSchedulerTestOf(testType string) (PSchedulerTest, bool) {
	for _, t := range PSchedulerTests {
		if t.Type == testType {
			return t, true
		}
	}
	return PSchedulerTest{}, false
}

// Ends are the ends of the link that run a test of this type under spec: the source alone for a
// test type with no rule (and any Longhaul does not take).
func Ends(testType string, spec json.RawMessage) (source, dest bool) {
	t, ok := PSchedulerTestOf(testType)
	if !ok || t.Participants == nil {
		return true, false
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(spec, &fields) // a spec that is no object names no flags (the importer refuses it)
	return t.Participants(fields)
}

// bothUnlessSingleEnded is throughput's rule: both ends, the source alone when the spec has
// single-ended or loopback (present, whatever its value).
func bothUnlessSingleEnded(spec map[string]json.RawMessage) (bool, bool) {
	_, single := spec["single-ended"]
	_, loop := spec["loopback"]
	return true, !single && !loop
}

// oneSideByFlip is latency's and latencybg's rule (owping and powstream run on one side): the
// destination when flip is true, else the source.
func oneSideByFlip(spec map[string]json.RawMessage) (bool, bool) {
	var flip bool
	_ = json.Unmarshal(spec["flip"], &flip)
	return !flip, flip
}

// PSchedulerTypes names the test types of PSchedulerTests whose ByPScheduler is by, as prose
// ("throughput, trace and rtt").
func PSchedulerTypes(by bool) string {
	var names []string
	for _, t := range PSchedulerTests {
		if t.ByPScheduler == by {
			names = append(names, t.Type)
		}
	}
	return prose(names)
}

// Importable names every test type whose results import ("throughput, trace, rtt, latency and
// latencybg").
func Importable() string {
	names := make([]string, len(PSchedulerTests))
	for i, t := range PSchedulerTests {
		names[i] = t.Type
	}
	return prose(names)
}

// prose joins names as a sentence lists them: "a", "a and b", "a, b and c".
func prose(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
