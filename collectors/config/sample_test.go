package config

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"longhaul/internal/sampletest"
)

// testEntry stands for the kinds' sample entries, which register in their own packages.
const testEntry = "  - id: tput\n    kind: test-kind\n    interval: 4h\n"

// public is what a config holds, without where it was read from.
func public(c *Config) Config {
	out := *c
	out.file, out.root, out.idx, out.kafkaFrom, out.warnings, out.from, out.getenv = "", nil, nil, "", nil, nil, nil
	for i := range out.Probes {
		out.Probes[i].Params = yaml.Node{}
	}
	return out
}

// The sample is the documentation of the agent's fields: every value it shows commented is
// the default applyDefaults gives, so uncommenting them all changes nothing.
func TestTheSampleShowsEveryDefault(t *testing.T) {
	sample := SampleConfig() + testEntry
	uncommented, n := sampletest.Uncomment(sample)
	if n < 10 {
		t.Fatalf("only %d commented settings in the sample", n)
	}
	asWritten, err := Parse("sample.yaml", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	all, err := Parse("sample.yaml", []byte(uncommented))
	if err != nil {
		t.Fatalf("%v\n%s", err, uncommented)
	}
	if a, b := public(asWritten), public(all); !reflect.DeepEqual(a, b) {
		t.Errorf("the commented values are not the defaults:\nas written  %+v\nuncommented %+v", a, b)
	}
	if len(asWritten.Warnings()) != 0 {
		t.Errorf("the sample uses deprecated names: %q", asWritten.Warnings())
	}
}

// Every field of the agent's config appears in the sample, set or commented.
func TestTheSampleShowsEveryField(t *testing.T) {
	uncommented, _ := sampletest.Uncomment(SampleConfig() + testEntry)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(uncommented), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	child := func(n *yaml.Node, key string) *yaml.Node {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
		t.Fatalf("the sample has no %q", key)
		return nil
	}
	for _, c := range []struct {
		node   *yaml.Node
		fields any
	}{
		{root, Config{}},
		{child(root, "kafka"), Kafka{}},
		{child(child(root, "kafka"), "tls"), KafkaTLS{}},
		{child(child(root, "kafka"), "sasl"), KafkaSASL{}},
		{child(root, "spool"), Spool{}},
		{child(root, "health"), Health{}},
		{child(root, "schedule"), Schedule{}},
		{child(root, "psconfig"), PSConfig{}},
		{child(root, "targets").Content[0], Target{}},
	} {
		want := sampletest.Tags(c.fields)
		switch c.fields.(type) {
		case Kafka: // the deprecated name is not shown
			want = slices.DeleteFunc(want, func(k string) bool { return k == "brokers" })
		case KafkaSASL: // refused: the sample says so in prose
			want = slices.DeleteFunc(want, func(k string) bool { return k == "password" })
		}
		if got := sampletest.Keys(c.node); !reflect.DeepEqual(got, want) {
			t.Errorf("%T: the sample shows %v, the config has %v", c.fields, got, want)
		}
	}
}

func TestTheWholeSampleIsTheAgentsPartThenEveryKindsEntry(t *testing.T) {
	if got := Sample(); got != SampleConfig() { // test-kind registers no sample
		t.Errorf("Sample() adds %q", strings.TrimPrefix(got, SampleConfig()))
	}
	if !strings.HasSuffix(SampleConfig(), "\nprobes:\n") {
		t.Error("the agent's part must end with the probes: key the kinds' entries go under")
	}
}

// collectors/config/README.md shows the agent's sample as the documentation of the fields and
// their defaults: it must be the sample, byte for byte.
func TestTheREADMEShowsTheSample(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if block := "```yaml\n" + SampleConfig() + "```\n"; !strings.Contains(string(b), block) {
		t.Errorf("collectors/config/README.md does not show config/sample.yaml; paste it under \"## The sample config\":\n%s", block)
	}
}

// collectors/README.md links the sample instead of pasting it: each field is documented once,
// in sample.yaml (shown above by this package's README).
func TestTheComponentREADMELinksTheSample(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "](config/sample.yaml)") {
		t.Error("collectors/README.md does not link config/sample.yaml")
	}
	if first, _, _ := strings.Cut(SampleConfig(), "\n"); strings.Contains(string(b), first) {
		t.Errorf("collectors/README.md pastes the sample (%q); link config/sample.yaml instead", first)
	}
}
