package agent

import (
	"context"
	"errors"
	"os/exec"
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
