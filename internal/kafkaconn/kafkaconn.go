// Package kafkaconn is how every Longhaul Go program connects to Kafka: the agent's producer,
// `longhaul tail` and `longhaul setup` take the connection options from here, so a change to
// how Longhaul reaches its brokers (addresses today; TLS and credentials are added here) is
// made once.
package kafkaconn

import (
	"fmt"
	"net"
	"strconv"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/settings"
)

// Conn is where the brokers are.
type Conn struct {
	Bootstrap []string // host:port of one or more brokers
}

// Parse reads a comma-separated bootstrap list (the --kafka flag, LONGHAUL_KAFKA or the
// agent's kafka.bootstrap), checking each address.
func Parse(list string) (Conn, error) {
	addrs := settings.List(list)
	if len(addrs) == 0 {
		return Conn{}, fmt.Errorf("no Kafka bootstrap address (--%s or %s)", settings.Kafka.Flag, settings.Kafka.Env)
	}
	for _, a := range addrs {
		if err := CheckHostPort(a); err != nil {
			return Conn{}, err
		}
	}
	return Conn{Bootstrap: addrs}, nil
}

// CheckHostPort accepts host:port with a port in 1..65535.
func CheckHostPort(a string) error {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return fmt.Errorf("kafka bootstrap %q: want host:port", a)
	}
	if n, err := strconv.Atoi(port); host == "" || err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("kafka bootstrap %q: want host:port with a port from 1 to 65535", a)
	}
	return nil
}

// Opts are the client options of the connection; callers add their own (consumer or producer).
func (c Conn) Opts() []kgo.Opt {
	return []kgo.Opt{kgo.SeedBrokers(c.Bootstrap...)}
}
