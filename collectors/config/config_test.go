package config

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// testKind is a probe kind whose params accept only `port`, like a real factory would.
type testKind struct{ Port int }

func (testKind) Run(context.Context, probe.Job) []sample.Sample { return nil }
func (testKind) Exclusive() bool                                { return true }
func (testKind) Timeout() time.Duration                         { return time.Minute }

func init() {
	probe.Register(probe.Registration{Kind: "test-kind", New: func(params *yaml.Node, _ probe.Exec) (probe.Probe, error) {
		var k testKind
		for i := 0; i+1 < len(params.Content); i += 2 {
			switch key := params.Content[i].Value; key {
			case "port":
				if err := params.Content[i+1].Decode(&k.Port); err != nil {
					return nil, fmt.Errorf("port: %v", err)
				}
			default:
				return nil, fmt.Errorf("%s: unknown field", key)
			}
		}
		return k, nil
	}})
}

func loadAndBuild(path string) (*Config, []Instance, error) {
	c, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	insts, err := c.Build(nil)
	return c, insts, err
}

func TestMinimalConfigTakesEveryDefault(t *testing.T) {
	c, insts, err := loadAndBuild("testdata/good/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kafka.ClientID != "longhaul-probe-cern-ps1" || c.Kafka.MaxInFlight != DefaultMaxInFlight {
		t.Errorf("kafka defaults: %+v", c.Kafka)
	}
	if c.Spool.Dir != DefaultSpoolDir || c.Spool.MaxBytes != DefaultSpoolMaxBytes ||
		c.Spool.SegmentBytes != DefaultSegmentBytes || c.Spool.Fsync != FsyncAlways ||
		c.Spool.FsyncInterval.D() != time.Second {
		t.Errorf("spool defaults: %+v", c.Spool)
	}
	if c.Health.Listen != "127.0.0.1:9273" || c.Health.LogEvery.D() != time.Minute {
		t.Errorf("health defaults: %+v", c.Health)
	}
	if c.PSConfig.Screen.Interval != 0 || c.PSConfig.Screen.Duration.D() != DefaultScreenDuration {
		t.Errorf("psconfig.screen defaults: %+v", c.PSConfig.Screen)
	}
	if c.Schedule.MaxBackground != DefaultMaxBackground {
		t.Errorf("max_background = %d", c.Schedule.MaxBackground)
	}
	if c.Targets[0].Address != "fnal-ps1" {
		t.Errorf("address defaults to the name, got %q", c.Targets[0].Address)
	}
	p := c.Probes[0]
	if !p.Targets.All || p.Jitter.D() != time.Hour || p.MaxWait.D() != 4*time.Hour {
		t.Errorf("probe defaults: all=%v jitter=%s max_wait=%s", p.Targets.All, p.Jitter.D(), p.MaxWait.D())
	}
	if len(insts) != 1 || len(insts[0].Targets) != 1 || insts[0].Targets[0].Name != "fnal-ps1" {
		t.Errorf("instances: %+v", insts)
	}
}

func TestFullConfigKeepsEveryValue(t *testing.T) {
	c, insts, err := loadAndBuild("testdata/good/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Spool.MaxBytes != 64<<20 || c.Spool.SegmentBytes != 1<<20 || c.Spool.Fsync != FsyncInterval ||
		c.Spool.FsyncInterval.D() != 500*time.Millisecond {
		t.Errorf("spool: %+v", c.Spool)
	}
	if c.Kafka.ClientID != "probe-cern" || c.Kafka.MaxInFlight != 200 || len(c.Kafka.Bootstrap) != 2 || len(c.Warnings()) != 0 {
		t.Errorf("kafka: %+v", c.Kafka)
	}
	if !c.Targets[0].Shared || c.Targets[0].Labels["site"] != "FNAL" || c.Targets[1].Address != "2001:db8::1" {
		t.Errorf("targets: %+v", c.Targets)
	}
	if c.SchemasDir != "off" || c.Health.Listen != "0.0.0.0:9300" || c.Schedule.MaxBackground != 2 {
		t.Errorf("other fields: %q %q %d", c.SchemasDir, c.Health.Listen, c.Schedule.MaxBackground)
	}
	tput, rtt := insts[0], insts[1]
	if tput.Probe.(testKind).Port != 5201 || len(tput.Targets) != 1 || tput.Conf.MaxWait.D() != 30*time.Minute {
		t.Errorf("tput: %+v", tput)
	}
	if len(rtt.Targets) != 2 || rtt.Conf.Jitter.D() != 0 {
		t.Errorf("rtt: targets %d jitter %s (an explicit 0s jitter stays 0)", len(rtt.Targets), rtt.Conf.Jitter.D())
	}
}

// Each bad fixture lists the errors it must produce in `# want:` lines: file, line, field path
// and message.
func TestBadConfigsNameFileLineAndField(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) < 8 {
		t.Fatalf("only %d bad fixtures", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, _ := os.ReadFile(f)
			var wants []string
			for _, line := range strings.Split(string(raw), "\n") {
				if w, ok := strings.CutPrefix(line, "# want: "); ok {
					wants = append(wants, w)
				}
			}
			if len(wants) == 0 {
				t.Fatal("fixture has no # want: line")
			}
			_, _, err := loadAndBuild(f)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not contain %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestByteSizeUnits(t *testing.T) {
	for in, want := range map[string]ByteSize{"1024": 1024, "8MiB": 8 << 20, "1GiB": 1 << 30, "5MB": 5e6, "12 KiB": 12 << 10} {
		var b ByteSize
		if err := yaml.Unmarshal([]byte(in), &b); err != nil || b != want {
			t.Errorf("%s: got %d, %v", in, b, err)
		}
	}
}

// toolKind is a test kind that runs the programs its params name.
type toolKind struct {
	testKind
	tools []string
}

func (k toolKind) Tools() []probe.Tool {
	var out []probe.Tool
	for _, t := range k.tools {
		out = append(out, probe.Tool{Name: t, Without: "the test fails"})
	}
	return out
}

func init() {
	probe.Register(probe.Registration{Kind: "tool-kind", New: func(params *yaml.Node, _ probe.Exec) (probe.Probe, error) {
		var p struct {
			Tools []string `yaml:"tools"`
		}
		err := params.Decode(&p)
		return toolKind{tools: p.Tools}, err
	}})
}

func TestCheckToolsNamesTheProbeAndTheToolMissingFromPATH(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "iperf3"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	cfg := filepath.Join(t.TempDir(), "mesh.yaml")
	os.WriteFile(cfg, []byte(`src: cern-ps1
kafka: {bootstrap: 127.0.0.1:9092, security: plaintext}
targets: [{name: fnal-ps1}]
probes:
  - {id: tput, kind: tool-kind, interval: 4h, params: {tools: [iperf3, ip]}}
  - {id: plain, kind: test-kind, interval: 1h}
  - id: path
    kind: tool-kind
    interval: 10m
    params: {tools: [traceroute]}
`), 0o644)
	c, insts, err := loadAndBuild(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range c.CheckTools(insts, exec.LookPath) {
		if tc.Missing != nil {
			got = append(got, tc.Missing.Error())
		} else {
			got = append(got, tc.ProbeID+" "+tc.Tool+" "+tc.Path)
		}
	}
	want := []string{
		"tput iperf3 " + filepath.Join(dir, "iperf3"),
		cfg + `:5: probes[0]: probe "tput" (tool-kind) runs ip: not found in $PATH; without it the test fails`,
		cfg + `:7: probes[2]: probe "path" (tool-kind) runs traceroute: not found in $PATH; without it the test fails`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
