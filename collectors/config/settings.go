package config

import (
	"fmt"
	"os"

	"longhaul/internal/settings"
)

// One name per setting (issue 12). The Kafka bootstrap address is kafka.bootstrap in the
// file, --kafka on the command line and LONGHAUL_KAFKA in the environment, the flag and the
// variable being those every Longhaul program uses (internal/settings); the first one set of
// flag, environment and file wins. The agent takes no default: an agent pointed at a broker
// that is not there would only fill its spool, so the address is required. The old names
// still work until the next release, with a one-line warning naming the new one.
const KafkaKey = "kafka.bootstrap"

var (
	KafkaFlag = settings.Kafka.Flag // "kafka"
	KafkaEnv  = settings.Kafka.Env  // "LONGHAUL_KAFKA"
)

// The deprecated names.
const (
	OldKafkaKey  = "kafka.brokers"
	OldKafkaFlag = "brokers"
	OldKafkaEnv  = "LONGHAUL_KAFKA_BROKERS"
)

// Options are the settings of a config that come from outside its file.
type Options struct {
	// Kafka is the bootstrap address given on the command line, with the flag as given
	// ("--kafka", or "--brokers"); a zero Override when the flag was not given.
	Kafka Override
	// Getenv reads the environment (os.Getenv). Nil leaves the environment out: tests and
	// the integration harness load their file as it is.
	Getenv func(string) string
}

// Override is a setting's value from outside the file and where it came from, for messages.
type Override struct {
	From  string // "--kafka", "LONGHAUL_KAFKA"; "" when not set
	Value string
}

// WithEnv is opt reading the process environment.
func (opt Options) WithEnv() Options {
	opt.Getenv = os.Getenv
	return opt
}

// kafkaOverride picks the bootstrap address by precedence: the flag, then LONGHAUL_KAFKA,
// then the deprecated LONGHAUL_KAFKA_BROKERS (with a warning). A zero Override leaves the
// file's value.
func (opt Options) kafkaOverride() (o Override, warning string) {
	if opt.Kafka.From != "" {
		return opt.Kafka, ""
	}
	if opt.Getenv == nil {
		return Override{}, ""
	}
	if v := opt.Getenv(KafkaEnv); v != "" {
		return Override{From: KafkaEnv, Value: v}, ""
	}
	if v := opt.Getenv(OldKafkaEnv); v != "" {
		return Override{From: OldKafkaEnv, Value: v}, deprecated(OldKafkaEnv, KafkaEnv)
	}
	return Override{}, ""
}

func deprecated(old, now string) string {
	return fmt.Sprintf("%s is deprecated, use %s (%s goes in the next release)", old, now, old)
}

// resolveKafka settles kafka.bootstrap: the deprecated key moves to the new one (a warning
// with its FILE:LINE; an error when both are set), then an override from the command line or
// the environment replaces the file's value. c.kafkaFrom records which won, so errors about
// the value name it.
func (c *Config) resolveKafka(l *errorList, opt Options) {
	c.kafkaFrom = KafkaKey
	if c.Kafka.Brokers != nil {
		line := l.idx.line(OldKafkaKey)
		if c.Kafka.Bootstrap != nil {
			l.at(OldKafkaKey, "the deprecated name of %s, which is set too: keep %s only", KafkaKey, KafkaKey)
		} else {
			c.Kafka.Bootstrap, c.kafkaFrom = c.Kafka.Brokers, OldKafkaKey
		}
		c.warnings = append(c.warnings, fmt.Sprintf("%s:%d: %s", c.file, line, deprecated(OldKafkaKey, KafkaKey)))
		c.Kafka.Brokers = nil
	}
	o, warning := opt.kafkaOverride()
	if warning != "" {
		c.warnings = append(c.warnings, warning)
	}
	if o.From != "" {
		c.Kafka.Bootstrap, c.kafkaFrom = splitHostPorts(o.Value), o.From
	}
}
