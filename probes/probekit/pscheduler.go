package probekit

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"longhaul/ingest/sample"
)

// Archive is the envelope pScheduler's archivers (http, kafka) send: the run's schedule, its
// test and tool, the participants and the result, whose form depends on the test type.
type Archive struct {
	ID       string `json:"id"`
	Schedule struct {
		Start    string `json:"start"`
		Duration string `json:"duration"`
	} `json:"schedule"`
	Test struct {
		Type string          `json:"type"`
		Spec json.RawMessage `json:"spec"`
	} `json:"test"`
	Tool         NameVersion     `json:"tool"`         // or a plain name (older messages)
	Participants Hosts           `json:"participants"` // or {"host": …} objects (older messages)
	Result       json.RawMessage `json:"result"`
}

// EndpointSpec is what every pScheduler test spec names: where the test runs from and to.
type EndpointSpec struct {
	Source string `json:"source"`
	Dest   string `json:"dest"`
}

// DecodeArchive decodes an archive message and checks its envelope.
func DecodeArchive(input []byte) (*Archive, error) {
	var a Archive
	if err := DecodeJSON(input, &a); err != nil {
		return nil, err
	}
	if a.Test.Type == "" {
		return nil, PathError("test.type", "missing: not a pScheduler archive message")
	}
	if len(a.Result) == 0 || string(a.Result) == "null" {
		return nil, PathError("result", "missing")
	}
	return &a, nil
}

// StartMS is schedule.start in epoch milliseconds.
func (a *Archive) StartMS() (int64, error) {
	if a.Schedule.Start == "" {
		return 0, PathError("schedule.start", "missing")
	}
	t, err := time.Parse(time.RFC3339Nano, a.Schedule.Start)
	if err != nil {
		return 0, PathError("schedule.start", "%q is not an ISO 8601 date and time", a.Schedule.Start)
	}
	ms, err := CheckEpochMS(t.UnixMilli())
	if err != nil {
		return 0, PathError("schedule.start", "%v", err)
	}
	return ms, nil
}

// Link fills src and dst left empty by the caller from the test spec: src is spec.source, or
// the first participant (the host that ran the test) when the spec names no source; dst is
// spec.dest.
func (a *Archive) Link(src, dst string) (string, string, error) {
	var spec EndpointSpec
	if len(a.Test.Spec) > 0 {
		if err := json.Unmarshal(a.Test.Spec, &spec); err != nil {
			return "", "", PathError("test.spec", "%v", err)
		}
	}
	if src == "" {
		src = spec.Source
		if src == "" && len(a.Participants) > 0 {
			src = a.Participants[0]
		}
		if !ValidHost(src) {
			return "", "", PathError("test.spec.source", "%q cannot be a src: pass --src", src)
		}
	}
	if dst == "" {
		dst = spec.Dest
		if !ValidHost(dst) {
			return "", "", PathError("test.spec.dest", "%q cannot be a dst: pass --dst", dst)
		}
	}
	return src, dst, nil
}

// RunID is "pscheduler-<id>" when the message carries its run id, so re-imports of the same
// run agree even when the JSON was re-serialised; otherwise the hash of the input.
func (a *Archive) RunID(input []byte) string {
	if isRunID(a.ID) {
		return "pscheduler-" + a.ID
	}
	return ImportRunID("pscheduler", input)
}

// isRunID: id can name a run in a sample, ^[A-Za-z0-9][A-Za-z0-9._:-]{0,180}$ (a loop, not a
// regexp: the bridge asks it of every result).
func isRunID(id string) bool {
	if id == "" || len(id) > 181 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != ':' && c != '-') {
			return false
		}
	}
	return true
}

// Decode decodes the test's spec into spec and the run's result into result, an error naming the
// JSON path (test.spec…, result…) of what does not fit.
func (a *Archive) Decode(spec, result any) error {
	if err := DecodeAt("test.spec", a.Test.Spec, spec); err != nil {
		return err
	}
	return DecodeAt("result", a.Result, result)
}

// Complete completes m from the archive input decoded into a: src and dst (unless given) and the
// run id (unless given), checked.
func (a *Archive) Complete(input []byte, m *Meta) error {
	var err error
	if m.Src, m.Dst, err = a.Link(m.Src, m.Dst); err != nil {
		return err
	}
	if m.RunID == "" {
		m.RunID = a.RunID(input)
	}
	return m.Check()
}

// ArchiveImporter imports an archive message already decoded (DecodeArchive) from its input: a
// test type's importer, so that a message read by several (the bridge, probes/all) is decoded
// once.
type ArchiveImporter func(a *Archive, input []byte, m Meta) ([]sample.Sample, error)

// ParseArchive decodes input and imports it with from.
func ParseArchive(input []byte, m Meta, from ArchiveImporter) ([]sample.Sample, error) {
	a, err := DecodeArchive(input)
	if err != nil {
		return nil, err
	}
	return from(a, input, m)
}

// Open checks that a, decoded from input, is of one of testTypes and completes m from it: src
// and dst (unless given), the run id (unless given), checked; it returns the run's start in
// epoch ms. Every pScheduler importer of a decoded message starts here.
func (a *Archive) Open(input []byte, m *Meta, testTypes ...string) (int64, error) {
	if !slices.Contains(testTypes, a.Test.Type) {
		return 0, PathError("test.type", "%q is not a %s test", Snippet(a.Test.Type), strings.Join(testTypes, " or "))
	}
	if err := a.Complete(input, m); err != nil {
		return 0, err
	}
	return a.StartMS()
}
