package config

import (
	"reflect"
	"strings"
	"testing"
)

// env is an environment for Options.Getenv.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestKafkaBootstrapTakesTheFlagThenTheEnvironmentThenTheFile(t *testing.T) {
	flag := Override{From: "--kafka", Value: "flag:9092"}
	vars := map[string]string{KafkaEnv: "env:9092", OldKafkaEnv: "old-env:9092"}
	for name, c := range map[string]struct {
		opt  Options
		want string
		from string
	}{
		"flag over everything":        {Options{Kafka: flag, Getenv: env(vars)}, "flag:9092", "--kafka"},
		"environment over the file":   {Options{Getenv: env(vars)}, "env:9092", KafkaEnv},
		"old variable when alone":     {Options{Getenv: env(map[string]string{OldKafkaEnv: "old-env:9092"})}, "old-env:9092", OldKafkaEnv},
		"file when nothing else":      {Options{Getenv: env(nil)}, "127.0.0.1:9092", KafkaKey},
		"file without an environment": {Options{}, "127.0.0.1:9092", KafkaKey},
	} {
		cfg, err := LoadWith("testdata/good/minimal.yaml", c.opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(cfg.Kafka.Bootstrap, HostPorts{c.want}) || cfg.kafkaFrom != c.from {
			t.Errorf("%s: %v from %s, want %s from %s", name, cfg.Kafka.Bootstrap, cfg.kafkaFrom, c.want, c.from)
		}
	}
}

func TestTheProcessEnvironmentIsReadOnlyWhenAsked(t *testing.T) {
	t.Setenv(KafkaEnv, "kafka:9092")
	plain, err := Load("testdata/good/minimal.yaml")
	if err != nil || plain.Kafka.Bootstrap[0] != "127.0.0.1:9092" {
		t.Fatalf("Load read the environment: %v %v", plain.Kafka.Bootstrap, err)
	}
	withEnv, err := LoadWith("testdata/good/minimal.yaml", Options{}.WithEnv())
	if err != nil || withEnv.Kafka.Bootstrap[0] != "kafka:9092" {
		t.Fatalf("%v %v", withEnv.Kafka.Bootstrap, err)
	}
}

func TestAnOverrideIsCheckedAndErrorsNameWhereItCameFrom(t *testing.T) {
	c, err := LoadWith("testdata/good/minimal.yaml", Options{Kafka: Override{From: "--kafka", Value: "kafka:9092, 10.0.0.2:9092"}})
	if err != nil || !reflect.DeepEqual(c.Kafka.Bootstrap, HostPorts{"kafka:9092", "10.0.0.2:9092"}) {
		t.Fatalf("%v %v", c, err)
	}
	for _, bad := range []string{"", "kafka", "kafka:0", "-x:9092", "a;b:9092"} {
		_, err := LoadWith("testdata/good/minimal.yaml", Options{Kafka: Override{From: "--brokers", Value: bad}})
		if err == nil || !strings.HasPrefix(err.Error(), "--brokers: ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	_, err = LoadWith("testdata/good/minimal.yaml", Options{Getenv: env(map[string]string{KafkaEnv: "kafka"})})
	if err == nil || err.Error() != `LONGHAUL_KAFKA: "kafka" is not host:port` {
		t.Errorf("environment: %v", err)
	}
}

// A file without kafka.bootstrap is complete when the address comes from the flag or the
// environment: one mesh file serves a host and a container.
func TestTheBootstrapMayComeOnlyFromOutsideTheFile(t *testing.T) {
	raw := []byte("src: cern-ps1\nkafka: {security: plaintext}\ntargets: [{name: fnal-ps1}]\nprobes: [{id: tput, kind: test-kind, interval: 4h}]\n")
	if _, err := Parse("mesh.yaml", raw); err == nil || !strings.Contains(err.Error(), "mesh.yaml:2: kafka.bootstrap: required: at least one host:port (or --kafka, LONGHAUL_KAFKA)") {
		t.Fatalf("without an override: %v", err)
	}
	c, err := ParseWith("mesh.yaml", raw, Options{Getenv: env(map[string]string{KafkaEnv: "kafka:9092"})})
	if err != nil || c.Kafka.Bootstrap[0] != "kafka:9092" {
		t.Fatalf("%v %v", c, err)
	}
}

func TestTheDeprecatedNamesStillWorkWithAWarningNamingTheNewOne(t *testing.T) {
	c, err := Load("testdata/good/deprecated-brokers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Kafka.Bootstrap, HostPorts{"kafka-1.example.org:9092", "10.0.0.2:9092"}) || c.Kafka.Brokers != nil {
		t.Errorf("bootstrap %v, brokers %v", c.Kafka.Bootstrap, c.Kafka.Brokers)
	}
	want := []string{"testdata/good/deprecated-brokers.yaml:5: kafka.brokers is deprecated, use kafka.bootstrap (kafka.brokers goes in the next release)"}
	if !reflect.DeepEqual(c.Warnings(), want) {
		t.Errorf("warnings %q", c.Warnings())
	}
	// A value under the old key is still located at its line.
	_, err = Parse("old.yaml", []byte("src: a\nkafka:\n  brokers: [kafka]\n  security: plaintext\ntargets: [{name: b}]\nprobes: [{id: p, kind: test-kind, interval: 1h}]\n"))
	if err == nil || err.Error() != `old.yaml:3: kafka.brokers[0]: "kafka" is not host:port` {
		t.Errorf("old key: %v", err)
	}

	c, err = LoadWith("testdata/good/minimal.yaml", Options{Getenv: env(map[string]string{OldKafkaEnv: "old:9092"})})
	if err != nil || c.Kafka.Bootstrap[0] != "old:9092" ||
		!reflect.DeepEqual(c.Warnings(), []string{"LONGHAUL_KAFKA_BROKERS is deprecated, use LONGHAUL_KAFKA (LONGHAUL_KAFKA_BROKERS goes in the next release)"}) {
		t.Errorf("old variable: %v %q %v", c.Kafka.Bootstrap, c.Warnings(), err)
	}
	c, _ = LoadWith("testdata/good/minimal.yaml", Options{Getenv: env(map[string]string{OldKafkaEnv: "old:9092", KafkaEnv: "new:9092"})})
	if c.Kafka.Bootstrap[0] != "new:9092" || len(c.Warnings()) != 0 {
		t.Errorf("both variables: the new one wins, the old one is left alone: %v %q", c.Kafka.Bootstrap, c.Warnings())
	}
}
