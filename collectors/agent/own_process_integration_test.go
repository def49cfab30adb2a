//go:build integration

package agent

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"longhaul/collectors/internal/kafkatest"
)

// ownProcessEnv names the test that a child process of the test binary runs alone.
const ownProcessEnv = "LONGHAUL_TEST_OWN_PROCESS"

// inOwnProcess runs test t alone, in a child process of this test binary, and reports what it
// printed; it returns true in that child, where the caller runs the test's body. For a test that
// measures its own process (getrusage) while the package's other tests run in parallel: the
// parent is parallel with them, the child's process holds only this test. The child starts at
// most `brokers` private brokers (kafkatest.Parallel), in slots the parent reserves.
func inOwnProcess(t *testing.T, brokers int) bool {
	t.Helper()
	if os.Getenv(ownProcessEnv) == t.Name() {
		return true
	}
	t.Parallel()
	args := []string{"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.v", "-test.count=1"}
	if d, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(d).Round(time.Second).String())
	}
	cmd := exec.Command(os.Args[0], args...)
	slot := kafkatest.Reserve(brokers)
	cmd.Env = append(os.Environ(), ownProcessEnv+"="+t.Name(), kafkatest.SlotEnv+"="+strconv.Itoa(slot))
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		t.Log(line)
	}
	if err != nil {
		t.Fatalf("%s in its own process: %v", t.Name(), err)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("%s did not run in its own process (no PASS line)", t.Name())
	}
	return false
}
