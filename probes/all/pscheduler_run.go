package all

import (
	"encoding/json"
	"path"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// runRecord is what pScheduler's REST API returns for one run (GET
// /pscheduler/tasks/T/runs/R; pscheduler-server's run_json): its times, state and results,
// and the task it belongs to only as task-href. The record may carry that task as "task" (the
// JSON of GET /pscheduler/tasks/T, as tools that save both put it): then its test names the
// test type and the hosts.
type runRecord struct {
	Href         string          `json:"href"`
	StartTime    string          `json:"start-time"`
	Duration     string          `json:"duration"`
	Participants []*string       `json:"participants"`
	State        string          `json:"state"`
	Errors       json.RawMessage `json:"errors"`
	Result       json.RawMessage `json:"result"`        // this participant's (older servers put the merged one here)
	ResultMerged json.RawMessage `json:"result-merged"` // every participant's, merged
	Task         *struct {
		Test struct {
			Type string          `json:"type"`
			Spec json.RawMessage `json:"spec"`
		} `json:"test"`
		Detail struct {
			Participants []*string `json:"participants"`
		} `json:"detail"`
	} `json:"task"`
}

// isRunRecord: the fields run_json writes that no archive message or result has.
func isRunRecord(top map[string]json.RawMessage) bool {
	_, merged := top["result-merged"]
	_, pdata := top["participant-data"]
	_, state := top["state"]
	_, taskHref := top["task-href"]
	return merged || (state && (pdata || taskHref))
}

// parseRunRecord imports a run record as the archive message of its run: result-merged (else
// result), start-time, the run id from href; the test and hosts from its task when included,
// else the test from the result's shape and the hosts from --src and --dst.
func parseRunRecord(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	var r runRecord
	if err := probekit.DecodeJSON(input, &r); err != nil {
		return nil, err
	}
	result := r.ResultMerged
	if isNull(result) {
		result = r.Result
	}
	if isNull(result) {
		return nil, probekit.PathError("result-merged", "null: a run record without a result (state %q%s): fetch it again once the run has finished", probekit.Snippet(r.State), errorsSnippet(r.Errors))
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(result, &top); err != nil {
		return nil, probekit.PathError("result-merged", "not a JSON object: %v", err)
	}
	typ, where := shapeOfResult(top), "the result's fields"
	spec := json.RawMessage(nil)
	participants := strs(r.Participants)
	if r.Task != nil && r.Task.Test.Type != "" {
		typ, where, spec = strings.TrimSpace(r.Task.Test.Type), "task.test.type", r.Task.Test.Spec
		if p := strs(r.Task.Detail.Participants); len(p) > 0 {
			participants = p
		}
	}
	if typ == "" {
		return nil, probekit.PathError("result-merged", "the result's fields do not say its test (a failed run%s): include the task (GET …/tasks/T) as \"task\", or import the archived message", failedSnippet(result))
	}
	taken, ok := PSchedulerTestOf(typ)
	if !ok {
		return nil, probekit.PathError("task.test.type", "%q (%s): only %s results can be imported", probekit.Snippet(typ), where, Importable())
	}
	if spec == nil && (m.Src == "" || m.Dst == "") {
		return nil, probekit.PathError("(top level)", "a %s run record without its task names no test hosts: pass --src and --dst (or include the task as \"task\")", typ)
	}
	start := r.StartTime
	if start == "" {
		ms, err := m.StartMS()
		if err != nil {
			return nil, probekit.PathError("start-time", "missing: pass --ts (epoch ms)")
		}
		start = time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
	}
	msg, err := json.Marshal(envelope{
		ID:           path.Base(strings.TrimRight(r.Href, "/")),
		Schedule:     schedule{Start: start, Duration: r.Duration},
		Test:         test{Type: typ, Spec: specOr(spec, m)},
		Participants: participants,
		Result:       result,
	})
	if err != nil {
		return nil, err
	}
	if r.Href == "" && m.RunID == "" {
		m.RunID = probekit.ImportRunID("pscheduler", input)
	}
	return taken.Import(msg, m)
}

// envelope is the archive message a bare result or a run record is read as.
type envelope struct {
	ID           string          `json:"id,omitempty"`
	Schedule     schedule        `json:"schedule"`
	Test         test            `json:"test"`
	Participants []string        `json:"participants,omitempty"`
	Result       json.RawMessage `json:"result"`
}

type schedule struct {
	Start    string `json:"start"`
	Duration string `json:"duration,omitempty"`
}

type test struct {
	Type string          `json:"type"`
	Spec json.RawMessage `json:"spec"`
}

// archiveOf is the archive message of a bare result: test typ from src to dst at start.
func archiveOf(typ string, startMS int64, m probekit.Meta, result []byte) ([]byte, error) {
	return json.Marshal(envelope{
		Schedule:     schedule{Start: time.UnixMilli(startMS).UTC().Format(time.RFC3339Nano)},
		Test:         test{Type: typ, Spec: specOr(nil, m)},
		Participants: []string{m.Src},
		Result:       result,
	})
}

// specOr is spec, or one naming --src and --dst as source and dest.
func specOr(spec json.RawMessage, m probekit.Meta) json.RawMessage {
	if !isNull(spec) {
		return spec
	}
	b, _ := json.Marshal(probekit.EndpointSpec{Source: m.Src, Dest: m.Dst})
	return b
}

func isNull(v json.RawMessage) bool { return len(v) == 0 || string(v) == "null" }

func strs(ps []*string) []string {
	var out []string
	for _, p := range ps {
		if p != nil && *p != "" {
			out = append(out, *p)
		}
	}
	return out
}

// errorsSnippet quotes a run record's errors, bounded.
func errorsSnippet(errs json.RawMessage) string {
	if isNull(errs) {
		return ""
	}
	return ", errors " + probekit.Snippet(string(errs))
}
