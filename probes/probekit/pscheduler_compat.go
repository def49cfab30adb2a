package probekit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// NameVersion is an archive message's tool. Current pScheduler sends the tool's enumeration
// ({"name": "iperf3", "version": "1.0", …}); the messages of its first releases, and its own
// documentation's examples (docs/json.tex, docs/json-samples/archiver-input.json), carry the
// name alone ("tool": "iperf3"). Both decode; a name alone leaves Version empty.
type NameVersion struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// UnmarshalJSON takes the object or a plain name.
func (n *NameVersion) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &n.Name)
	}
	type plain NameVersion // without this method
	return json.Unmarshal(b, (*plain)(n))
}

// Hosts is an archive message's participants: host names in current messages, objects with
// a "host" (and that participant's own result) in the documentation's older form
// ("participants": [{"host": "dev9", "result": {…}}]). Either way the names, in order.
type Hosts []string

// UnmarshalJSON takes names or objects naming a host.
func (h *Hosts) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(Hosts, 0, len(raw))
	for i, r := range raw {
		r = bytes.TrimSpace(r)
		if len(r) > 0 && r[0] == '{' {
			var p struct {
				Host string `json:"host"`
			}
			if err := json.Unmarshal(r, &p); err != nil {
				return fmt.Errorf("participants[%d]: %v", i, err)
			}
			out = append(out, p.Host)
			continue
		}
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return &json.UnmarshalTypeError{Value: "non-string", Type: reflect.TypeOf(""), Field: fmt.Sprintf("participants[%d]", i)}
		}
		out = append(out, s)
	}
	*h = out
	return nil
}

// ResultShapes tell a result's test by its fields, as pScheduler's result formats define them
// (pscheduler-test-*/validate.py): the first shape of which the result has a field wins.
// latency and latencybg share theirs.
var ResultShapes = []ResultShape{
	{Test: "throughput", Fields: []string{"intervals", "summary"}},
	{Test: "trace", Fields: []string{"paths"}},
	{Test: "rtt", Fields: []string{"roundtrips"}},
	{Test: "latency", Fields: []string{"histogram-latency", "packets-sent", "raw-packets"}},
}

// ResultShape is the fields that say a result is of Test.
type ResultShape struct {
	Test   string
	Fields []string
}

// ShapeOf is the test a result's fields say it is of, "" when they do not tell.
func ShapeOf(top map[string]json.RawMessage) string {
	for _, sh := range ResultShapes {
		for _, f := range sh.Fields {
			if v, has := top[f]; has && string(v) != "null" {
				return sh.Test
			}
		}
	}
	return ""
}

// BareResult reports whether input is a result alone, as `pscheduler result --format json`
// and `pscheduler task --format json` print it (the run's merged result: {"succeeded": …, …}
// without id, schedule, test or tool), and if so of which test type its fields say it is
// (ResultShapes; "" when they do not tell). Such a result names no hosts and no time: the
// importer needs --src, --dst and --ts.
func BareResult(input []byte) (testType string, ok bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(input, &top) != nil {
		return "", false
	}
	if _, has := top["succeeded"]; !has {
		return "", false
	}
	for _, k := range []string{"test", "schedule", "tool", "result"} {
		if _, has := top[k]; has {
			return "", false
		}
	}
	return ShapeOf(top), true
}
