//go:build integration

package kafkatest

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"longhaul/internal/kafkaconn"
)

// PortStep is how far apart the ports of two parallel brokers are: each uses port and ctrlPort
// to ctrlPort+2.
const PortStep = 10

var (
	slots      atomic.Int32
	installing sync.Mutex
)

// SlotEnv names the first broker slot of a child process of a test binary (a test run in a
// process of its own): its parent reserved the slots (Reserve), so the two never share a folder
// or a port.
const SlotEnv = "LONGHAUL_KAFKATEST_SLOT"

func init() {
	if n, err := strconv.Atoi(os.Getenv(SlotEnv)); err == nil && n >= 0 {
		slots.Store(int32(n))
	}
}

// Reserve takes n broker slots of this process for a child process, and returns the first
// (pass it to the child as SlotEnv).
func Reserve(n int) int {
	return int(slots.Add(int32(n)) - int32(n))
}

// Parallel brings up a broker of its own for a test that runs beside others (t.Parallel): the
// n-th broker of the test process gets the stack folder base/n and ports port+n×PortStep and
// ctrlPort+n×PortStep (to +2), with Kafka's jars installed once in base/cache for all of them.
// Like Start, it is stopped when the test ends.
func Parallel(t testing.TB, base string, port, ctrlPort int) *Broker {
	t.Helper()
	n := int(slots.Add(1) - 1)
	dir := filepath.Join(base, strconv.Itoa(n))
	return startIn(t, dir, filepath.Join(base, "cache"), port+n*PortStep, ctrlPort+n*PortStep, kafkaconn.SASLSSL)
}
