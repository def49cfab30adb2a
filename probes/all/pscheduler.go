package all

import (
	"encoding/json"
	"errors"
	"strings"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// shapeOfResult is the test a result's fields say it is of (probekit.ResultShapes), looking
// into the full form's "result" too ({succeeded, error, diags, result: {…}}, rtt's).
func shapeOfResult(top map[string]json.RawMessage) string {
	if typ := probekit.ShapeOf(top); typ != "" {
		return typ
	}
	var inner map[string]json.RawMessage
	if r := top["result"]; len(r) > 0 && r[0] == '{' && json.Unmarshal(r, &inner) == nil {
		return probekit.ShapeOf(inner)
	}
	return ""
}

// isBare: a result alone, as `pscheduler result --format json` prints it: it says whether it
// succeeded, and has none of an archive message's envelope.
func isBare(top map[string]json.RawMessage) bool {
	if _, has := top["succeeded"]; !has {
		return false
	}
	for _, k := range []string{"test", "schedule", "tool", "participants"} {
		if _, has := top[k]; has {
			return false
		}
	}
	return true
}

// ParsePScheduler imports what pScheduler archives or prints, by its form:
//
//   - an archive message (the http and kafka archivers'): test.type picks the importer;
//   - a REST run record (GET /pscheduler/tasks/T/runs/R: result-merged, participant-data,
//     state), see runRecord;
//   - a bare result (`pscheduler result --format json`, `pscheduler task --format json`), or
//     one wrapped as {"result": …} the way pScheduler hands it to a test's result-format:
//     its shape says its test, --src, --dst and --ts give the rest.
func ParsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	ss, err := parsePScheduler(input, m)
	return ss, bounded(err)
}

// bounded is err, or its message bounded when the importer quoted a long value it refuses.
func bounded(err error) error {
	if err != nil && len(err.Error()) > maxErrBytes {
		return errors.New(probekit.Bounded(err.Error()))
	}
	return err
}

// maxErrBytes bounds an error message, as every importer's.
const maxErrBytes = 1000

func parsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(input, &top) == nil {
		if isRunRecord(top) {
			return parseRunRecord(input, m)
		}
		if isWrappedResult(top) {
			input, top = top["result"], nil
			if json.Unmarshal(input, &top) != nil {
				top = nil
			}
		}
		if isBare(top) {
			return parseBare(input, shapeOfResult(top), m)
		}
	}
	a, err := probekit.DecodeArchive(input)
	if err != nil {
		return nil, err
	}
	return importArchive(a, input, m)
}

// ImportArchive imports an archive message decoded already (probekit.DecodeArchive) from input
// by its test type's importer, as ParsePScheduler does: the pScheduler bridge decodes each
// result once.
func ImportArchive(a *probekit.Archive, input []byte, m probekit.Meta) ([]sample.Sample, error) {
	ss, err := importArchive(a, input, m)
	return ss, bounded(err)
}

func importArchive(a *probekit.Archive, input []byte, m probekit.Meta) ([]sample.Sample, error) {
	typ := strings.TrimSpace(a.Test.Type)
	t, ok := PSchedulerTestOf(typ)
	switch {
	case !ok:
		return nil, probekit.PathError("test.type", "%q: only %s results can be imported", probekit.Snippet(typ), Importable())
	case t.FromArchive != nil:
		return t.FromArchive(a, input, m)
	}
	return t.Import(input, m)
}

// parseBare imports a bare result by the importer of the test its shape says
// (probekit.ResultShapes: latencybg shares latency's, and reads as latency).
func parseBare(input []byte, typ string, m probekit.Meta) ([]sample.Sample, error) {
	if t, ok := PSchedulerTestOf(typ); ok {
		if t.ReadsBare {
			return t.Import(input, m)
		}
		return bareAsArchive(t.Type, t.Import)(input, m)
	}
	if typ == "" {
		return nil, probekit.PathError("(top level)", "a bare pScheduler result whose fields do not say its test (no intervals, paths, roundtrips or histogram-latency: a failed run's result%s): import the archived message or the run record, which name the test", failedSnippet(input))
	}
	return nil, probekit.PathError("(top level)", "a bare %s result: only bare %s results can be imported", typ, Importable())
}

// bareAsArchive reads a bare result of test typ as the archive message it would be part of:
// the hosts from --src and --dst (spec source and dest), the time from --ts.
func bareAsArchive(typ string, parse Importer) Importer {
	return func(input []byte, m probekit.Meta) ([]sample.Sample, error) {
		if m.Src == "" || m.Dst == "" {
			return nil, probekit.PathError("(top level)", "a bare %s result (pscheduler result --format json) names no hosts: pass --src and --dst", typ)
		}
		start, err := m.StartMS()
		if err != nil {
			return nil, probekit.PathError("(top level)", "a bare %s result carries no start time: pass --ts (epoch ms)", typ)
		}
		if m.RunID == "" {
			m.RunID = probekit.ImportRunID("pscheduler", input)
		}
		msg, err := archiveOf(typ, start, m, input)
		if err != nil {
			return nil, err
		}
		return parse(msg, m)
	}
}

// isWrappedResult: {"result": {…}} and nothing else that an archive message or a result
// has, the form pScheduler feeds a test's result-format (and some tools save).
func isWrappedResult(top map[string]json.RawMessage) bool {
	r, ok := top["result"]
	if !ok || len(r) == 0 || r[0] != '{' {
		return false
	}
	for _, k := range []string{"test", "schedule", "tool", "participants", "id", "succeeded"} {
		if _, has := top[k]; has {
			return false
		}
	}
	return true
}

// failedSnippet quotes a failed bare result's error, bounded.
func failedSnippet(input []byte) string {
	var r struct {
		Error *string `json:"error"`
	}
	if json.Unmarshal(input, &r) != nil || r.Error == nil || strings.TrimSpace(*r.Error) == "" {
		return ""
	}
	return ": " + probekit.Snippet(strings.TrimSpace(*r.Error))
}
