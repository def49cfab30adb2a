package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"longhaul/collectors/agent"
	"longhaul/internal/certtest"
)

const example = "../../longhaul-probe.example.yaml"

func invoke(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = app.Run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// toolsOnPath makes PATH a directory holding the named tools (empty scripts), so checks do
// not depend on what this machine has installed; it returns the directory.
func toolsOnPath(t *testing.T, tools ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range tools {
		if err := os.WriteFile(filepath.Join(dir, tool), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	return dir
}

// noKafkaEnv keeps the caller's environment out of the precedence under test, and gives the
// files a secured config reads (the example's /etc/longhaul/... are not on this machine): a CA
// in LONGHAUL_KAFKA_CA and a password file in LONGHAUL_KAFKA_PASSWORD_FILE holding
// knownPassword.
func noKafkaEnv(t *testing.T) (ca, passwordFile string) {
	t.Helper()
	for _, v := range []string{"LONGHAUL_KAFKA", "LONGHAUL_KAFKA_BROKERS", "LONGHAUL_KAFKA_SECURITY", "LONGHAUL_KAFKA_CERT",
		"LONGHAUL_KAFKA_USER", "LONGHAUL_KAFKA_PASSWORD"} {
		t.Setenv(v, "")
	}
	dir := t.TempDir()
	ca, passwordFile = filepath.Join(dir, "ca.crt"), filepath.Join(dir, "kafka.password")
	caPEM, _ := certtest.SelfSigned(t, true)
	if err := os.WriteFile(ca, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(passwordFile, []byte(knownPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LONGHAUL_KAFKA_CA", ca)
	t.Setenv("LONGHAUL_KAFKA_PASSWORD_FILE", passwordFile)
	return ca, passwordFile
}

// knownPassword is the agent's password in these tests: no output may show it.
const knownPassword = "kn0wn-Passw0rd-never-printed"

func writeFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mesh.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lineOf is the number of the line of file that is line.
func lineOf(t *testing.T, file, line string) string {
	t.Helper()
	b, _ := os.ReadFile(file)
	for i, l := range strings.Split(string(b), "\n") {
		if l == line {
			return strconv.Itoa(i + 1)
		}
	}
	t.Fatalf("%s has no line %q", file, line)
	return ""
}

// The example config is the documentation and what docker-compose.yml mounts: it must be
// the sample config, and pass check with the real kinds.
func TestTheExampleConfigIsTheSampleConfig(t *testing.T) {
	code, sample, errs := invoke("config", "sample")
	if code != 0 || errs != "" {
		t.Fatalf("config sample: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != sample {
		t.Fatalf("collectors/longhaul-probe.example.yaml differs from `longhaul-probe config sample`; regenerate it:\n" +
			"  go run ./collectors/cmd/longhaul-probe config sample > collectors/longhaul-probe.example.yaml")
	}
}

func TestTheExampleConfigPassesCheck(t *testing.T) {
	ca, pw := noKafkaEnv(t)
	bin := toolsOnPath(t, "iperf3", "traceroute", "ping", "ip")
	code, out, errs := invoke("check", "--config", example)
	want := example + ": ok: src cern-ps1, kafka 127.0.0.1:9092 (from kafka.bootstrap), 3 targets, 5 probes, 15 (probe, target) runs per interval\n" +
		example + ": ok: kafka security sasl_ssl (from default), CA " + ca + " (from LONGHAUL_KAFKA_CA), user agent-cern-ps1 (from kafka.sasl.user), password in " + pw + " (from LONGHAUL_KAFKA_PASSWORD_FILE)\n" +
		example + ": ok: probe host (host): ip " + bin + "/ip\n" +
		example + ": ok: probe path (path): traceroute " + bin + "/traceroute\n" +
		example + ": ok: probe rtt (rtt): ping " + bin + "/ping\n" +
		example + ": ok: probe sweep (sweep): iperf3 " + bin + "/iperf3, ip " + bin + "/ip\n" +
		example + ": ok: probe tput (throughput): iperf3 " + bin + "/iperf3, ip " + bin + "/ip\n"
	if code != 0 || out != want || errs != "" {
		t.Fatalf("check exited %d\nstdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errs)
	}
}

// What `config sample` prints is a config the agent's own loader takes as it is.
func TestConfigSampleLoadsWithTheAgentsLoader(t *testing.T) {
	noKafkaEnv(t)
	toolsOnPath(t, "iperf3", "traceroute", "ping", "ip")
	_, sample, _ := invoke("config", "sample")
	if code, out, errs := invoke("check", "--config", writeFile(t, sample)); code != 0 || errs != "" || !strings.Contains(out, "5 probes") {
		t.Fatalf("check of the sample: exit %d\n%s%s", code, out, errs)
	}
}

// The admission check: each tool missing from PATH is one line naming the probe and the tool.
func TestCheckReportsEveryMissingToolOnALineOfItsOwn(t *testing.T) {
	noKafkaEnv(t)
	toolsOnPath(t, "iperf3", "ping")
	code, out, errs := invoke("check", "--config", example)
	want := []string{
		example + `:` + lineOf(t, example, "  - id: host") + `: probes[0]: probe "host" (host) runs ip: not found in $PATH; without it host snapshots carry no interface or MTU`,
		example + `:` + lineOf(t, example, "  - id: path") + `: probes[1]: probe "path" (path) runs traceroute: not found in $PATH; without it every run fails with tool_missing`,
		example + `:` + lineOf(t, example, "  - id: sweep") + `: probes[3]: probe "sweep" (sweep) runs ip: not found in $PATH; without it host snapshots carry no interface or MTU`,
		example + `:` + lineOf(t, example, "  - id: tput") + `: probes[4]: probe "tput" (throughput) runs ip: not found in $PATH; without it host snapshots carry no interface or MTU`,
	}
	if code != 1 || out != "" || errs != strings.Join(want, "\n")+"\n" {
		t.Fatalf("exit %d\nstdout: %s\nstderr:\n%s\nwant:\n%s", code, out, errs, strings.Join(want, "\n"))
	}
}

// Config errors and missing tools are reported together, all at once.
func TestCheckNamesTheFileLineAndFieldOfEveryError(t *testing.T) {
	noKafkaEnv(t)
	toolsOnPath(t)
	cfg := writeFile(t, `src: cern-ps1
kafka: {bootstrap: 127.0.0.1:9092, sasl: {user: agent-cern-ps1}}
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
`)
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
	// Params are checked by the kind once the structure is valid, and the tools of the
	// probes that did build are looked up as well.
	os.WriteFile(cfg, []byte(`src: cern-ps1
kafka: {bootstrap: 127.0.0.1:9092, sasl: {user: agent-cern-ps1}}
targets: [{name: fnal}]
probes:
  - id: tput
    kind: throughput
    interval: 4h
    params: {streams: 0}
  - {id: rtt, kind: rtt, interval: 1m}
`), 0o644)
	code, _, errs = invoke("check", "--config", cfg)
	want := cfg + ":8: probes[0].params: streams: 0 is not between 1 and 128 (iperf3's limit)\n" +
		cfg + `:9: probes[1]: probe "rtt" (rtt) runs ping: not found in $PATH; without it every run fails with tool_missing` + "\n"
	if code != 1 || errs != want {
		t.Fatalf("exit %d\n%s\nwant\n%s", code, errs, want)
	}
}

// One name per setting: --kafka over $LONGHAUL_KAFKA over kafka.bootstrap; the old names work,
// with a one-line warning naming the new one.
func TestKafkaTakesTheFlagThenTheEnvironmentThenTheFile(t *testing.T) {
	noKafkaEnv(t)
	toolsOnPath(t, "iperf3", "traceroute", "ping", "ip")
	kafkaOf := func(args ...string) (string, string) {
		t.Helper()
		code, out, errs := invoke(append([]string{"check", "--config", example}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		line := strings.SplitN(out, "\n", 2)[0]
		i, j := strings.Index(line, "kafka "), strings.Index(line, "), ")
		return line[i+6 : j+1], errs
	}
	if got, _ := kafkaOf(); got != "127.0.0.1:9092 (from kafka.bootstrap)" {
		t.Errorf("file: %s", got)
	}
	t.Setenv("LONGHAUL_KAFKA_BROKERS", "old-env:9092")
	if got, errs := kafkaOf(); got != "old-env:9092 (from LONGHAUL_KAFKA_BROKERS)" ||
		errs != "longhaul-probe check: warning: LONGHAUL_KAFKA_BROKERS is deprecated, use LONGHAUL_KAFKA (LONGHAUL_KAFKA_BROKERS goes in the next release)\n" {
		t.Errorf("old variable: %s %q", got, errs)
	}
	t.Setenv("LONGHAUL_KAFKA", "env:9092")
	if got, errs := kafkaOf(); got != "env:9092 (from LONGHAUL_KAFKA)" || errs != "" {
		t.Errorf("environment: %s %q", got, errs)
	}
	if got, _ := kafkaOf("--kafka", "kafka:9092,10.0.0.2:9092"); got != "kafka:9092,10.0.0.2:9092 (from --kafka)" {
		t.Errorf("flag: %s", got)
	}
	if got, errs := kafkaOf("--brokers", "kafka:9092"); got != "kafka:9092 (from --brokers)" ||
		errs != "longhaul-probe check: warning: --brokers is deprecated, use --kafka (--brokers goes in the next release)\n" {
		t.Errorf("old flag: %s %q", got, errs)
	}
	if code, _, errs := invoke("check", "--config", example, "--brokers", "kafka"); code != 1 ||
		!strings.Contains(errs, `--brokers: "kafka" is not host:port`) {
		t.Errorf("bad old flag: exit %d: %s", code, errs)
	}
	if code, _, errs := invoke("check", "--config", example, "--kafka", "kafka"); code != 1 || errs != "--kafka: \"kafka\" is not host:port\n" {
		t.Errorf("bad flag: exit %d: %s", code, errs)
	}
}

func TestTheOldConfigKeyWorksWithAWarningNamingFileAndLine(t *testing.T) {
	noKafkaEnv(t)
	toolsOnPath(t, "ping")
	cfg := writeFile(t, "src: cern-ps1\nkafka:\n  brokers: [127.0.0.1:9092]\n  sasl: {user: agent-cern-ps1}\ntargets: [{name: fnal}]\nprobes: [{id: rtt, kind: rtt, interval: 1m}]\n")
	code, out, errs := invoke("check", "--config", cfg)
	if code != 0 || !strings.Contains(out, "kafka 127.0.0.1:9092 (from kafka.brokers)") ||
		errs != "longhaul-probe check: warning: "+cfg+":3: kafka.brokers is deprecated, use kafka.bootstrap (kafka.brokers goes in the next release)\n" {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

// The CLI rule (internal/cli): help on stdout with exit 0, usage errors as one line and a hint
// on stderr with exit 2, no arguments usage on stderr with exit 2.
func TestHelpAndExitCodesFollowTheOneRule(t *testing.T) {
	for _, cmd := range []string{"run", "check", "status", "config", "config sample", "version", "parse", "plan"} {
		args := append(strings.Fields(cmd), "--help")
		if code, out, errs := invoke(args...); code != 0 || errs != "" || !strings.HasPrefix(out, "usage: longhaul-probe "+cmd+" ") {
			t.Errorf("%s --help: exit %d\nstdout: %s\nstderr: %s", cmd, code, out, errs)
		}
	}
	if code, out, errs := invoke("--help"); code != 0 || errs != "" || !strings.Contains(out, "  check    check a config and that the tools its probes run are installed") {
		t.Errorf("--help: exit %d\n%s%s", code, out, errs)
	}
	for _, arg := range []string{"version", "--version"} {
		if code, out, _ := invoke(arg); code != 0 || !strings.HasPrefix(out, "longhaul-probe dev (commit ") {
			t.Errorf("%s: %d %q", arg, code, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"probe"}, "longhaul-probe: unknown command \"probe\"\nrun 'longhaul-probe --help' for usage\n"},
		{[]string{"--verbose"}, "longhaul-probe: unknown flag --verbose\nrun 'longhaul-probe --help' for usage\n"},
		{[]string{"check", "--verbose"}, "longhaul-probe check: unknown flag --verbose\nrun 'longhaul-probe check --help' for usage\n"},
		{[]string{"run", "extra"}, "longhaul-probe run: unexpected argument \"extra\"\nrun 'longhaul-probe run --help' for usage\n"},
		{[]string{"run", "--log-level", "loud"}, "longhaul-probe run: --log-level: \"loud\" is not debug, info, warn or error\nrun 'longhaul-probe run --help' for usage\n"},
		{[]string{"config", "show"}, "longhaul-probe config: unknown command \"show\"\nrun 'longhaul-probe config --help' for usage\n"},
	} {
		if code, out, errs := invoke(c.args...); code != 2 || out != "" || errs != c.want {
			t.Errorf("%v: exit %d, stdout %q\nstderr %q\nwant   %q", c.args, code, out, errs, c.want)
		}
	}
	if code, out, errs := invoke(); code != 2 || out != "" || !strings.HasPrefix(errs, "usage: longhaul-probe <command> [flags]") {
		t.Errorf("no command: exit %d %q", code, errs)
	}
}

func TestRunRefusesAnInvalidConfigBeforeStartingAnything(t *testing.T) {
	noKafkaEnv(t)
	code, _, errs := invoke("run", "--config", "../../config/testdata/bad/unknown-field.yaml")
	if code != 1 || !strings.Contains(errs, `unknown-field.yaml:7: targets[0].adress: unknown field "adress"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// status reads a running agent's health endpoint: a refusal is said with its reason and what
// to do, and the exit code tells ok (0) from anything else (1).
func TestStatusSaysWhyKafkaRefusesTheAgent(t *testing.T) {
	since := time.Now().Add(-95 * time.Second)
	next := time.Now().Add(20 * time.Second)
	h := agent.Health{Status: "refused", Src: "cern-ps1", Version: "1.2.3", UptimeS: 300,
		Kafka: agent.KafkaHealth{State: agent.KafkaRefused, Reason: "authentication refused: wrong SCRAM user or password (or the user was revoked)",
			RefusedSince: &since, NextCheck: &next, Security: "sasl_ssl", User: "agent-cern-ps1"},
		Spool:   agent.SpoolHealth{DepthSamples: 812, DepthBytes: 411_000},
		Samples: agent.SampleHealth{Spooled: 812},
		Probes:  map[string]agent.ProbeHealth{"tput": {Kind: "throughput"}}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/health" {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(h)
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	code, out, errs := invoke("status", "--health", addr)
	for _, want := range []string{
		"longhaul-probe cern-ps1 (version 1.2.3), up 5m0s: refused\n",
		"kafka:   REFUSED since ",
		" (1m35s): authentication refused: wrong SCRAM user or password (or the user was revoked)\n",
		"         user agent-cern-ps1 over sasl_ssl; re-checked in 20s, re-reading the credential files: fix them (or the broker's ACLs), no restart needed\n",
		"spool:   812 samples (401.4 KiB) waiting for Kafka, 0 dropped (spool full), 0 corrupt skipped\n",
		"samples: 812 spooled, 0 acknowledged by Kafka, 0 dead-lettered, 0 lost\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if code != 1 || errs != "" {
		t.Errorf("refused: exit %d, stderr %q", code, errs)
	}
	code, out, _ = invoke("status", "--health", addr, "--json")
	var back agent.Health
	if code != 1 || json.Unmarshal([]byte(out), &back) != nil || back.Kafka.Reason != h.Kafka.Reason {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
	h = agent.Health{Status: "ok", Src: "cern-ps1", Kafka: agent.KafkaHealth{State: agent.KafkaConnected, Security: "sasl_ssl", User: "agent-cern-ps1"}}
	if code, out, _ := invoke("status", "--health", addr); code != 0 || !strings.Contains(out, "kafka:   connected (user agent-cern-ps1 over sasl_ssl), no acknowledgement yet\n") {
		t.Errorf("ok: exit %d\n%s", code, out)
	}
	srv.Close()
	if code, out, errs := invoke("status", "--health", addr); code != 1 || out != "" || !strings.HasPrefix(errs, "longhaul-probe status: no agent answers on http://"+addr+"/health: ") {
		t.Errorf("no agent: exit %d %q %q", code, out, errs)
	}
}

// check prints where the password is, never the password, whether it comes from a file or
// from the environment.
func TestCheckNeverPrintsThePassword(t *testing.T) {
	noKafkaEnv(t)
	toolsOnPath(t, "iperf3", "traceroute", "ping", "ip")
	code, out, errs := invoke("check", "--config", example)
	t.Setenv("LONGHAUL_KAFKA_PASSWORD_FILE", "")
	t.Setenv("LONGHAUL_KAFKA_PASSWORD", knownPassword)
	code2, out2, errs2 := invoke("check", "--config", example)
	if code != 0 || code2 != 0 || !strings.Contains(out2, "password from LONGHAUL_KAFKA_PASSWORD\n") {
		t.Fatalf("exit %d, %d\n%s%s\n%s%s", code, code2, out, errs, out2, errs2)
	}
	if strings.Contains(out+errs+out2+errs2, knownPassword) {
		t.Fatal("check printed the password")
	}
	// An inline password is refused without being repeated.
	cfg := writeFile(t, "src: a\nkafka:\n  bootstrap: k:9092\n  sasl: {user: agent-a, password: "+knownPassword+"}\ntargets: [{name: b}]\nprobes: [{id: p, kind: rtt, interval: 1m}]\n")
	code, out, errs = invoke("check", "--config", cfg)
	if code != 1 || !strings.Contains(errs, cfg+":4: kafka.sasl.password: a password is never written in the config") || strings.Contains(out+errs, knownPassword) {
		t.Fatalf("inline: exit %d\n%s%s", code, out, errs)
	}
}
