package throughput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"longhaul/probes/probekit"
)

// psOpen reads what ParsePScheduler is given, in the forms pScheduler has written it:
//
//   - an archive message as the http and kafka archivers send it (tool as an object);
//   - an older one, as pScheduler's own documentation shows it: tool as a plain name,
//     participants as {"host", "result"} objects, times with an hours-only offset ("-05") or
//     none at all (then --ts is the time);
//   - a bare result, as `pscheduler result --format json` prints it (the run's merged result
//     alone): it names no hosts and no time, so --src, --dst and --ts are required.
//
// It completes m (src, dst, run id) and returns the message (for a bare result, one whose
// result is the input) and the run's start in epoch ms.
func psOpen(input []byte, m *probekit.Meta) (*probekit.Archive, int64, error) {
	var a probekit.Archive
	if err := psDecode(input, &a); err != nil {
		return nil, 0, err
	}
	if a.Test.Type == "" {
		typ, bare := probekit.BareResult(input)
		if !bare {
			return nil, 0, probekit.PathError("test.type", "missing: not a pScheduler archive message or result")
		}
		if typ != "" && typ != "throughput" {
			return nil, 0, probekit.PathError("(top level)", "a bare %s result, not a throughput result", typ)
		}
		return psBare(input, m)
	}
	if a.Test.Type != "throughput" {
		return nil, 0, probekit.PathError("test.type", "%q is not a throughput test", probekit.Snippet(a.Test.Type))
	}
	if len(a.Result) == 0 || string(a.Result) == "null" {
		return nil, 0, probekit.PathError("result", "missing")
	}
	if err := a.Complete(input, m); err != nil {
		return nil, 0, err
	}
	start, err := psStart(a.Schedule.Start, *m)
	if err != nil {
		return nil, 0, err
	}
	return &a, start, nil
}

// psDecode decodes the message, locating any error by line and column or JSON path.
func psDecode(input []byte, a *probekit.Archive) error {
	first := firstNonSpace(input)
	if first < 0 {
		return fmt.Errorf("empty input: no JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	if err := dec.Decode(a); err != nil {
		if truncated(err) {
			return posError(input, int64(len(input)), "truncated JSON: the input ends inside a value")
		}
		return jsonError(input, 0, "", err)
	}
	if off := dec.InputOffset(); firstNonSpace(input[off:]) >= 0 {
		return posError(input, off+int64(firstNonSpace(input[off:])), "more than one JSON value (import one run per file)")
	}
	return nil
}

// psBare opens a bare result: the hosts and the time come from the command line.
func psBare(input []byte, m *probekit.Meta) (*probekit.Archive, int64, error) {
	if m.Src == "" || m.Dst == "" {
		return nil, 0, probekit.PathError("(top level)", "a bare pScheduler result (pscheduler result --format json) names no hosts: pass --src and --dst")
	}
	if m.RunID == "" {
		m.RunID = probekit.ImportRunID("pscheduler", input)
	}
	if err := m.Check(); err != nil {
		return nil, 0, err
	}
	start, err := m.StartMS()
	if err != nil {
		return nil, 0, probekit.PathError("(top level)", "a bare pScheduler result carries no start time: pass --ts (epoch ms)")
	}
	a := &probekit.Archive{Result: input}
	a.Test.Type = "throughput"
	return a, start, nil
}

// psStart is schedule.start in epoch ms: RFC 3339, an ISO 8601 offset in hours alone
// ("2016-02-08T17:35:03-05", docs/json.tex) or without any ("2016-02-19T04:35:50",
// docs/json-samples): a time without a zone is ambiguous, --ts must say it.
func psStart(s string, m probekit.Meta) (int64, error) {
	if s == "" {
		return 0, probekit.PathError("schedule.start", "missing")
	}
	var t time.Time
	var err error
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999-07", "2006-01-02T15:04:05.999999999-0700"} {
		if t, err = time.Parse(layout, s); err == nil {
			break
		}
	}
	if err != nil {
		if _, zerr := time.Parse("2006-01-02T15:04:05.999999999", s); zerr == nil {
			if m.Start.IsZero() {
				return 0, probekit.PathError("schedule.start", "%q has no time zone: pass --ts (epoch ms) with the run's start", s)
			}
			return probekit.CheckEpochMS(m.Start.UnixMilli())
		}
		return 0, probekit.PathError("schedule.start", "%q is not an ISO 8601 date and time", probekit.Snippet(strings.TrimSpace(s)))
	}
	ms, err := probekit.CheckEpochMS(t.UnixMilli())
	if err != nil {
		return 0, probekit.PathError("schedule.start", "%v", err)
	}
	return ms, nil
}
