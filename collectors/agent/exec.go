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

// SystemExec runs a tool directly (argv, never a shell) in its own process group, with a clean
// environment (toolEnv). A cancelled or timed-out run's group gets SIGTERM first, so a tool that
// reports on it says what it had (iperf3 prints its JSON with the start section: whether the
// server had accepted it), then, termGrace later or once the tool is gone, SIGKILL for the
// group: nothing of it (traceroute's helpers) outlives the run.
func SystemExec(ctx context.Context, argv []string) (stdout, stderr []byte, err error) {
	if len(argv) == 0 {
		return nil, nil, errors.New("exec: empty argv")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = toolEnv(os.Environ())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = termGrace // then Go kills the tool itself and stops waiting for its output
	var out, errb capped
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if cmd.Process != nil && ctx.Err() != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever of the group ignored SIGTERM
	}
	return out.Bytes(), errb.Bytes(), err
}

// termGrace is how long a cancelled tool has after SIGTERM to print what it had and exit.
const termGrace = 2 * time.Second

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
