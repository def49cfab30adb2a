package sample

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"longhaul/ingest/schema"
)

func TestCleanLabelsKeepsWhatTheSchemaAccepts(t *testing.T) {
	in := map[string]string{
		"display-name":     "IHEP to IN2P3",
		"src.display-name": "IHEP Beijing",
		"reference.site":   "CERN",
		"has space":        "x",
		"":                 "empty key",
		"-leading-dash":    "x",
		"long":             strings.Repeat("é", 200), // 400 bytes
	}
	got, dropped := CleanLabels(in)
	if !reflect.DeepEqual(dropped, []string{"", "-leading-dash", "has space"}) {
		t.Errorf("dropped %q", dropped)
	}
	if len(got) != 4 || got["src.display-name"] != "IHEP Beijing" || got["reference.site"] != "CERN" {
		t.Errorf("kept %v", got)
	}
	if v := got["long"]; len(v) > MaxLabelValue || !utf8.ValidString(v) || len(v) != 256 {
		t.Errorf("long value: %d bytes, valid UTF-8 %v", len(v), utf8.ValidString(v))
	}
}

func TestCleanLabelsKeepsAtMostTheSchemasCount(t *testing.T) {
	in := map[string]string{}
	for i := 0; i < 40; i++ {
		in[fmt.Sprintf("k%02d", i)] = "v"
	}
	got, dropped := CleanLabels(in)
	if len(got) != MaxLabels || len(dropped) != 40-MaxLabels || dropped[0] != "k32" {
		t.Errorf("kept %d, dropped %v", len(got), dropped)
	}
	if got, dropped := CleanLabels(nil); got != nil || dropped != nil {
		t.Errorf("nil in: %v %v", got, dropped)
	}
}

// Whatever CleanLabels returns, on any sample kind that carries labels, validates against the
// schema the sample names; a host snapshot takes none.
func TestCleanedLabelsValidateOnEverySampleThatCarriesThem(t *testing.T) {
	reg, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := CleanLabels(map[string]string{"display-name": strings.Repeat("x", 1000), "dst.display-name": "\xff\xfeLyon", "bad key": "x"})
	tp := NewThroughput("a", "b", "tcp", "r1", RecordSummary, 1700000000000)
	tp.Tool, tp.Protocol, tp.BitsPerSecond, tp.SndWndBytes = "iperf3", "tcp", F64(1e6), I64(65536)
	path := NewPath("a", "b", "trace", "r1", 1700000000000)
	path.Tool = "traceroute"
	rtt := NewRTT("a", "b", "ping", "r1", 1700000000000)
	rtt.Tool = "ping"
	host := NewHost("a", "b", "tcp", 1700000000000)
	host.CongestionControl = "cubic"
	for _, s := range []Sample{tp, path, rtt, host} {
		ApplyLabels(s, labels)
		raw, _ := json.Marshal(s)
		if err := reg.Validate(raw); err != nil {
			t.Errorf("%s: %v\n%s", s.Head().Schema, err, raw)
		}
		_, carries := s.(Labeled)
		if has := strings.Contains(string(raw), `"labels"`); has != carries {
			t.Errorf("%s: labels in message %v, carries labels %v", s.Head().Schema, has, carries)
		}
	}
}
