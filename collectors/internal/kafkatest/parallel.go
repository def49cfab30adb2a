//go:build integration

package kafkatest

import (
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
