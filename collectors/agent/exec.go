package agent

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// maxOutput caps what one tool run may print (an iperf3 -J of a long test is a few MB).
const maxOutput = 64 << 20

// LookPath finds a tool the way SystemExec will run it: exec.LookPath, on $PATH.
func LookPath(tool string) (string, error) { return exec.LookPath(tool) }

// SystemExec runs a tool directly (argv, never a shell) in its own process group, so a
// cancelled or timed-out run kills the tool and its children (traceroute's helpers), with a clean
// environment (toolEnv).
func SystemExec(ctx context.Context, argv []string) (stdout, stderr []byte, err error) {
	if len(argv) == 0 {
		return nil, nil, errors.New("exec: empty argv")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = toolEnv(os.Environ())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out, errb capped
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// capped is a buffer that keeps the first maxOutput bytes and discards the rest.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room < len(p) {
		if room > 0 {
			c.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return c.Buffer.Write(p)
}
