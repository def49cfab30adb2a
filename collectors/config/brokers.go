package config

import (
	"fmt"
	"strings"
)

// SetBrokers replaces kafka.brokers with a comma-separated list of host:port (the run and
// check commands' --brokers flag), so one mesh file serves a host and a container.
func (c *Config) SetBrokers(list string) error {
	var brokers []string
	for _, b := range strings.Split(list, ",") {
		b = strings.TrimSpace(b)
		if err := checkHostPort(b); err != nil {
			return fmt.Errorf("--brokers: %w", err)
		}
		brokers = append(brokers, b)
	}
	c.Kafka.Brokers = brokers
	return nil
}
