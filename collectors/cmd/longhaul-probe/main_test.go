package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func invoke(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = dispatch(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// The example config is the documentation: it must pass check with the real probe kinds.
func TestTheExampleConfigPassesCheck(t *testing.T) {
	code, out, errs := invoke("check", "--config", "../../longhaul-probe.example.yaml")
	if code != 0 || !strings.Contains(out, "ok: src cern-ps1, 3 targets, 5 probes, 12 (probe, target) runs per interval") {
		t.Fatalf("check exited %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
}

func TestBrokersFlagReplacesTheConfigsBrokers(t *testing.T) {
	if code, _, errs := invoke("check", "--config", "../../longhaul-probe.example.yaml", "--brokers", "kafka:9092"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := invoke("check", "--config", "../../longhaul-probe.example.yaml", "--brokers", "kafka"); code != 1 ||
		!strings.Contains(errs, `--brokers: "kafka" is not host:port`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestCheckNamesTheFileLineAndFieldOfEveryError(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bad.yaml")
	os.WriteFile(cfg, []byte(`src: cern-ps1
kafka: {bootstrap: 127.0.0.1:9092}
targets:
  - {name: fnal, address: "-c"}
probes:
  - id: tput
    kind: throughput
    interval: 4h
    params: {streams: 0}
  - id: rtt
    kind: ping
    interval: 1m
`), 0o644)
	code, _, errs := invoke("check", "--config", cfg)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		cfg + `:4: targets[0].address: "-c" looks like a command-line flag`,
		cfg + `:11: probes[1].kind: unknown kind "ping" (known: host, path, rtt, sweep, throughput)`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	// Params are checked by the kind once the structure is valid.
	os.WriteFile(cfg, []byte(`src: cern-ps1
kafka: {bootstrap: 127.0.0.1:9092}
targets: [{name: fnal}]
probes:
  - id: tput
    kind: throughput
    interval: 4h
    params: {streams: 0}
`), 0o644)
	if code, _, errs := invoke("check", "--config", cfg); code != 1 || !strings.Contains(errs, cfg+":8: probes[0].params: streams") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestEverySubcommandHasHelpAndUnknownOnesFail(t *testing.T) {
	for _, cmd := range []string{"run", "check", "version", "parse"} {
		if code, out, errs := invoke(cmd, "--help"); code != 0 || !strings.Contains(out+errs, "usage: longhaul-probe "+cmd) {
			t.Errorf("%s --help: exit %d\n%s%s", cmd, code, out, errs)
		}
	}
	if code, out, _ := invoke("version"); code != 0 || out != "longhaul-probe dev\n" {
		t.Errorf("version: %d %q", code, out)
	}
	if code, _, errs := invoke("probe"); code != 2 || !strings.Contains(errs, `unknown command "probe"`) {
		t.Errorf("unknown command: %d %s", code, errs)
	}
	if code, _, _ := invoke(); code != 2 {
		t.Errorf("no command: exit %d", code)
	}
}

func TestRunRefusesAnInvalidConfigBeforeStartingAnything(t *testing.T) {
	code, _, errs := invoke("run", "--config", "../../config/testdata/bad/unknown-field.yaml")
	if code != 1 || !strings.Contains(errs, `unknown-field.yaml:7: targets[0].adress: unknown field "adress"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
