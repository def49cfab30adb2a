package agent

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestSystemExecRunsAToolWithoutAShell(t *testing.T) {
	out, _, err := SystemExec(context.Background(), []string{"echo", "a;b", "$(id)"})
	if err != nil || string(out) != "a;b $(id)\n" {
		t.Fatalf("out %q err %v", out, err)
	}
}

func TestSystemExecReportsAMissingTool(t *testing.T) {
	_, _, err := SystemExec(context.Background(), []string{"longhaul-no-such-tool"})
	if !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("err %v", err)
	}
}

func TestSystemExecKillsTheToolAndItsChildrenOnTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	// The shell's child sleep holds stdout open: only killing the group ends the run quickly.
	_, _, err := SystemExec(ctx, []string{"sh", "-c", "sleep 30 & sleep 30"})
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err %v after %s", err, time.Since(start))
	}
}

func TestAToolSeesNoneOfTheAgentsSettingsOrSecrets(t *testing.T) {
	t.Setenv("LONGHAUL_KAFKA_PASSWORD_FILE", "/etc/longhaul/agent.password")
	t.Setenv("https_proxy", "http://proxy.example:3128")
	t.Setenv("TZ", "UTC")
	out, _, err := SystemExec(context.Background(), []string{"env"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, _, _ := strings.Cut(line, "=")
		got[name] = true
	}
	if !got["PATH"] || !got["TZ"] || !strings.Contains(string(out), "LC_ALL=C\n") {
		t.Errorf("the tool's environment lacks PATH, TZ or the C locale:\n%s", out)
	}
	for name := range got {
		if name != "PATH" && name != "TZ" && name != "TMPDIR" && name != "LC_ALL" {
			t.Errorf("the tool sees %s:\n%s", name, out)
		}
	}
}

func TestSystemExecLetsATimedOutToolSayWhatItHadBeforeItIsKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	// as iperf3 does on SIGTERM: print what it has, then exit
	out, _, err := SystemExec(ctx, []string{"sh", "-c", `trap 'echo "had 3 intervals"; exit 1' TERM; sleep 30 & wait`})
	if err == nil || string(out) != "had 3 intervals\n" {
		t.Fatalf("out %q err %v", out, err)
	}
}

func TestSystemExecKillsAToolThatIgnoresSIGTERMAfterItsGrace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := SystemExec(ctx, []string{"sh", "-c", `trap '' TERM; sleep 30 & sleep 30`})
	if took := time.Since(start); err == nil || took > termGrace+3*time.Second {
		t.Fatalf("err %v after %s", err, took)
	}
}
