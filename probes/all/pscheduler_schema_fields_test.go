package all

import (
	"encoding/json"
	"strings"
	"testing"

	"longhaul/probes/probekit/golden"
)

// Issue 34: every field pScheduler's throughput, trace and rtt result schemas allow is accepted.
// schemaFields is every property of those schemas (pscheduler-test-{throughput,trace,rtt}/*/
// validate.py at perfsonar/pscheduler 1e8b192, result schema version 1, the only one), as a
// path in a result; "row" is a throughput-data row, found at four places of a result.
var schemaFields = map[string][]string{
	"throughput": {"schema", "succeeded", "error", "diags", "mss", "mtu", "tcp-window-size",
		"requested-tcp-window-size", "intervals", "summary", "intervals[].streams", "intervals[].summary",
		"summary.streams", "summary.summary",
		"row.throughput-bits", "row.throughput-bytes", "row.receiver-throughput-bits", "row.sent", "row.lost",
		"row.jitter", "row.stream-id", "row.start", "row.end", "row.rtt", "row.tcp-window-size",
		"row.retransmits", "row.omitted"},
	"trace": {"schema", "paths", "succeeded", "error", "diags",
		"hop.ip", "hop.hostname", "hop.rtt", "hop.as", "hop.error", "hop.mtu"},
	"rtt": {"schema", "succeeded", "error", "diags", "roundtrips", "sent", "received", "lost", "reorders",
		"duplicates", "loss", "min", "max", "mean", "stddev",
		"roundtrip.ip", "roundtrip.length", "roundtrip.rtt", "roundtrip.ttl", "roundtrip.seq", "roundtrip.error"},
}

// Values of pScheduler's shared types (python-pscheduler's jsonval.py), as JSON text. Integers
// are draft-7 integers: 5.0 is one.
var (
	cardinal     = []string{`1`, `9000`, `64500.0`, `1e3`}
	cardinalZero = append([]string{`0`, `0.0`}, cardinal...)
	text         = []string{`""`, `"free text\nover two lines"`, `"ping -c 1 x\ngarbage"`}
	duration     = []string{`"PT0.000123S"`, `"PT0S"`, `"PT1M2.5S"`, `"P1DT2H"`, `"P1W"`, `"P0.00000002W"`, `"PT"`, `"P"`}
	probability  = []string{`0`, `1`, `0.5`, `0.0`, `1.0`}
	ipAddress    = []string{`"192.0.2.1"`, `"2001:db8::1"`, `"::ffff:192.0.2.1"`}
	host         = append([]string{`"r1.example.net"`, `"_r1.example.net"`, `"r1.example.net."`, `"r1"`}, ipAddress...)
	asObject     = []string{`{"number":64500}`, `{"number":64500,"owner":"EXAMPLE-NET"}`, `{"number":1.0}`}
	icmpError    = []string{`"net-unreachable"`, `"host-unreachable"`, `"protocol-unreachable"`, `"port-unreachable"`,
		`"fragmentation-needed-and-df-set"`, `"source-route-failed"`, `"destination-network-unknown"`,
		`"destination-host-unknown"`, `"source-host-isolated"`, `"destination-network-administratively-prohibited"`,
		`"destination-host-administratively-prohibited"`, `"network-unreachable-for-type-of-service"`,
		`"icmp-destination-host-unreachable-tos"`, `"communication-administratively-prohibited"`,
		`"host-precedence-violation"`, `"precedence-cutoff-in-effect"`}
	boolean        = []string{`true`, `false`}
	number         = []string{`0`, `1.5`, `1e9`, `940000000.0`}
	integerOrNull  = append([]string{`null`, `0`, `12`, `12.0`}, `3145728`)
	numberOrNull   = append([]string{`null`}, number...)
	row            = `{"start":0,"end":1,"throughput-bits":1000000}`
	throughputRows = []string{"intervals[0].streams[0]", "intervals[0].summary", "summary.streams[0]", "summary.summary"}
	minimalByTest  = map[string]string{
		"throughput": `{"succeeded":true,"diags":"","intervals":[{"streams":[` + row + `],"summary":` + row + `}],"summary":{"streams":[` + row + `],"summary":` + row + `}}`,
		"trace":      `{"succeeded":true,"paths":[[{"ip":"192.0.2.1","rtt":"PT0.001S"}]]}`,
		"rtt":        `{"succeeded":true,"roundtrips":[{"seq":1,"rtt":"PT0.001S"}],"loss":0}`,
	}
)

// schemaValues is, for each field of schemaFields, the values its schema type allows (with the
// edge ones: null where allowed, empty arrays and objects, floats that are integers).
var schemaValues = map[string]map[string][]string{
	"throughput": {
		"schema": cardinal, "succeeded": boolean, "error": text, "diags": text, "mss": cardinalZero,
		"mtu": cardinalZero, "tcp-window-size": cardinalZero, "requested-tcp-window-size": cardinalZero,
		"intervals":           {`[]`, `[{}]`, `[{"streams":[]}]`, `[{"summary":{}}]`, `[{"streams":[],"summary":` + row + `,"other":1}]`},
		"summary":             {`{}`, `{"summary":` + row + `}`, `{"streams":[],"summary":` + row + `,"other":1}`},
		"intervals[].streams": {`[]`, `[` + row + `,` + row + `]`}, "intervals[].summary": {`{}`, row},
		"summary.streams": {`[]`, `[` + row + `]`}, "summary.summary": {`{}`, row},
		"row.throughput-bits": number, "row.throughput-bytes": number, "row.receiver-throughput-bits": number,
		"row.sent": integerOrNull, "row.lost": integerOrNull, "row.jitter": numberOrNull,
		"row.stream-id": {`"SUM"`, `"3"`, `3`, `3.0`}, "row.start": {`0`, `0.0`, `0.5`}, "row.end": {`1`, `1.0`, `2.5`},
		"row.rtt": numberOrNull, "row.tcp-window-size": integerOrNull, "row.retransmits": integerOrNull,
		"row.omitted": boolean,
	},
	"trace": {
		"schema": cardinal, "succeeded": boolean, "error": text, "diags": text,
		"paths":  {`[]`, `[[]]`, `[[{}]]`, `[[{}],[]]`},
		"hop.ip": ipAddress, "hop.hostname": host, "hop.rtt": duration, "hop.as": asObject,
		"hop.error": icmpError, "hop.mtu": cardinal,
	},
	"rtt": {
		"schema": cardinal, "succeeded": boolean, "error": text, "diags": text,
		"roundtrips": {`[]`, `[{}]`, `[{"seq":1,"rtt":"PT0.001S","hostname":"r1.example.net"}]`},
		"sent":       cardinal, "received": cardinalZero, "lost": cardinalZero, "reorders": cardinalZero,
		"duplicates": cardinalZero, "loss": probability,
		"min": duration, "max": duration, "mean": duration, "stddev": duration,
		"roundtrip.ip": ipAddress, "roundtrip.length": cardinal, "roundtrip.rtt": duration,
		"roundtrip.ttl": cardinal, "roundtrip.seq": cardinal, "roundtrip.error": icmpError,
	},
}

// fieldPaths is where a field of schemaFields goes in a minimal result.
func fieldPaths(test, field string) []string {
	prefix, name, nested := strings.Cut(field, ".")
	switch {
	case test == "throughput" && nested && prefix == "row":
		var out []string
		for _, r := range throughputRows {
			out = append(out, r+"."+name)
		}
		return out
	case field == "intervals[].streams" || field == "intervals[].summary":
		return []string{strings.Replace(field, "[]", "[0]", 1)}
	case nested && prefix == "hop":
		return []string{"paths[0][0]." + name}
	case nested && prefix == "roundtrip":
		return []string{"roundtrips[0]." + name}
	}
	return []string{field}
}

// specsByTest are the specs each result is tried with: a throughput result is read differently
// for TCP and UDP.
var specsByTest = map[string][]string{
	"throughput": {`{"source":"ps-a.example.org","dest":"192.0.2.1"}`, `{"source":"ps-a.example.org","dest":"192.0.2.1","udp":true}`},
	"trace":      {`{"source":"ps-a.example.org","dest":"192.0.2.1"}`},
	"rtt":        {`{"source":"ps-a.example.org","dest":"192.0.2.1","count":1}`},
}

// archiveWith is a minimal archive message of test with spec whose result has v at path.
func archiveWith(t *testing.T, test, spec, path, v string) []byte {
	t.Helper()
	var res map[string]any
	if err := json.Unmarshal([]byte(minimalByTest[test]), &res); err != nil {
		t.Fatal(err)
	}
	if err := setAt(res, path, v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{
		"id": "schema-fields", "schedule": map[string]string{"start": "2026-11-27T10:00:00Z", "duration": "PT20S"},
		"test":         map[string]any{"type": test, "spec": json.RawMessage(spec)},
		"tool":         map[string]string{"name": "tool", "version": "1.0"},
		"participants": []string{"ps-a.example.org"}, "result": res,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEverySchemaFieldHasValuesToTry(t *testing.T) {
	for test, fields := range schemaFields {
		for _, f := range fields {
			if len(schemaValues[test][f]) == 0 {
				t.Errorf("%s: no value to try for %s", test, f)
			}
		}
		if len(schemaValues[test]) != len(fields) {
			t.Errorf("%s: %d fields with values, %d in the schema", test, len(schemaValues[test]), len(fields))
		}
	}
}

// Each field the schema allows, with each value of its type, in an otherwise minimal result:
// the importer gives samples the sample schemas accept, never an error.
func TestEverySchemaFieldIsAccepted(t *testing.T) {
	n := 0
	for test, fields := range schemaFields {
		for _, field := range fields {
			for _, path := range fieldPaths(test, field) {
				for _, v := range schemaValues[test][field] {
					for _, spec := range specsByTest[test] {
						ss, err := ParsePScheduler(archiveWith(t, test, spec, path, v), (golden.Case{}).MustMeta())
						if err != nil || len(ss) == 0 {
							t.Errorf("%s %s result.%s = %s: %d samples, error %v", test, spec, path, v, len(ss), err)
							continue
						}
						golden.CheckAll(t, ss)
						n++
					}
				}
			}
		}
	}
	t.Logf("%d results, each with one field set", n)
}
