// Package settings names every setting that more than one Longhaul program reads: one flag
// name, one environment variable and one default each, so `--kafka`, `LONGHAUL_KAFKA` and
// `kafka.bootstrap` (the agent's config key) mean the same thing everywhere. Scripts, tests
// and docs use the same names (scripts/stack/defaults.env derives them from the stack's ports).
package settings

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// Setting is one named setting: a flag, the environment variable that gives the flag's
// default, and the default when neither is set.
type Setting struct {
	Flag    string
	Env     string
	Default string
	Usage   string
}

// The settings shared by the agent, the operator CLI, the bench tools, the scripts and tests.
var (
	Kafka      = Setting{"kafka", "LONGHAUL_KAFKA", "127.0.0.1:9092", "Kafka bootstrap servers, host:port comma-separated"}
	Influx     = Setting{"influx", "LONGHAUL_INFLUX", "https://127.0.0.1:8086", "InfluxDB base URL (https: TLS, trusting LONGHAUL_INFLUX_CA)"}
	InfluxDB   = Setting{"influx-db", "LONGHAUL_INFLUX_DB", "longhaul", "InfluxDB database"}
	Flink      = Setting{"flink", "LONGHAUL_FLINK", "http://127.0.0.1:8081", "Flink REST base URL"}
	Dashboards = Setting{"dashboards", "LONGHAUL_DASHBOARDS", "", "folder of the Grafana dashboard JSON (default: dashboards/json of the Longhaul root)"}

	// How a program authenticates to Kafka (internal/kafkaconn): TLS with the CA, SCRAM-SHA-512
	// with a user whose password is read from a file (never given on a command line).
	KafkaSecurity     = Setting{"kafka-security", "LONGHAUL_KAFKA_SECURITY", "sasl_ssl", "Kafka security: sasl_ssl (TLS + SCRAM-SHA-512), ssl (TLS only) or plaintext (explicitly insecure)"}
	KafkaCA           = Setting{"kafka-ca", "LONGHAUL_KAFKA_CA", "", "PEM file of the CA that signed the brokers' certificates (empty: the system's roots)"}
	KafkaUser         = Setting{"kafka-user", "LONGHAUL_KAFKA_USER", "", "SCRAM user"}
	KafkaPasswordFile = Setting{"kafka-password-file", "LONGHAUL_KAFKA_PASSWORD_FILE", "", "file holding the SCRAM user's password"}
	KafkaCert         = Setting{"kafka-cert", "LONGHAUL_KAFKA_CERT", "", "PEM file with a client certificate and its key (mutual TLS, security ssl)"}

	// SecretsDir is the native stack's folder of secret files, kafka-<user>.password among them
	// (scripts/stack/lib.sh): `longhaul job submit` gives the Flink job its password file there.
	SecretsDir = Setting{"secrets-dir", "LONGHAUL_SECRETS_DIR", "", "folder of the stack's secret files (kafka-<user>.password, ca.crt)"}

	// Administration (topics, ACLs, credentials) goes to the brokers' admin listener with the
	// admin certificate (mutual TLS): no admin password exists to leak.
	KafkaAdmin     = Setting{"kafka-admin", "LONGHAUL_KAFKA_ADMIN", "127.0.0.1:9094", "Kafka admin listener (mutual TLS), host:port comma-separated"}
	KafkaAdminCert = Setting{"kafka-admin-cert", "LONGHAUL_KAFKA_ADMIN_CERT", "", "PEM file with the admin certificate and its key"}

	// How a program authenticates to InfluxDB (operator/influx): a user whose password is read
	// from a file, over HTTPS when the URL says so, trusting the CA.
	InfluxUser         = Setting{"influx-user", "LONGHAUL_INFLUX_USER", "", "InfluxDB user"}
	InfluxPasswordFile = Setting{"influx-password-file", "LONGHAUL_INFLUX_PASSWORD_FILE", "", "file holding the InfluxDB user's password"}
	InfluxCA           = Setting{"influx-ca", "LONGHAUL_INFLUX_CA", "", "PEM file of the CA that signed InfluxDB's certificate (https URLs; empty: the system's roots)"}
)

// Secret reads a secret from a file: the whole file, without a trailing newline. An empty
// file is an error, so a missing credential is never sent as an empty one. The error names the
// file, never its content.
func Secret(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("no password file given")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("password file: %w", err)
	}
	s := strings.TrimRight(string(b), "\r\n")
	if s == "" {
		return "", fmt.Errorf("password file %s is empty", path)
	}
	return s, nil
}

// Value is the environment's value, else the default.
func (s Setting) Value() string {
	if v := os.Getenv(s.Env); v != "" {
		return v
	}
	return s.Default
}

// String registers the setting's flag on fs, defaulting to Value(); its usage names the
// variable.
func (s Setting) String(fs *flag.FlagSet) *string {
	return fs.String(s.Flag, s.Value(), fmt.Sprintf("%s (env %s)", s.Usage, s.Env))
}

// List splits a comma-separated value (Kafka's bootstrap list), dropping empty items.
func List(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
