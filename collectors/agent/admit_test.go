package agent

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/collectors/schedule"
)

// The agent says at start which probe lacks which tool, as `longhaul-probe check` does,
// rather than leaving it to every run to fail with tool_missing.
func TestAToolMissingFromPATHIsLoggedAtStartNamingTheProbeAndTheTool(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "iperf3"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	cfg := writeConfig(t, dir, "127.0.0.1:1", `  - id: tput
    kind: synthetic
    interval: 1h
    params: {tools: [iperf3, traceroute]}
`)
	var logs bytes.Buffer
	a, err := New(cfg, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Producer: newMemKafka(), Clock: schedule.NewFakeClock(t0)})
	if err != nil {
		t.Fatal(err)
	}
	defer a.closeAll()
	var warnings []string
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "level=WARN") {
			warnings = append(warnings, line)
		}
	}
	want := `level=WARN msg="probe cannot run: tool missing" probe=tput kind=synthetic tool=traceroute problem="` +
		cfg.File() + `:17: probes[0]: probe \"tput\" (synthetic) runs traceroute: not found in $PATH; without it every run fails with tool_missing"`
	if len(warnings) != 1 || !strings.HasSuffix(warnings[0], want) {
		t.Fatalf("warnings:\n%s\nwant one ending in\n%s", strings.Join(warnings, "\n"), want)
	}
}
