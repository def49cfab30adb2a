// Package settings names every setting that more than one Longhaul program reads: one flag
// name, one environment variable and one default each, so `--kafka`, `LONGHAUL_KAFKA` and
// `kafka.bootstrap` (the agent's config key) mean the same thing everywhere. Scripts, tests
// and docs use the same names (scripts/stack/defaults.env derives them from the stack's ports).
package settings

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Setting is one named setting: a flag, the environment variable that gives the flag's
// default, and the default when neither is set.
type Setting struct {
	Flag    string
	Env     string
	Default string
	Usage   string
	// local, when set, gives the default on a host that runs the native stack from this
	// checkout: a file of its secrets folder (or a value that goes with one) when it exists, so
	// `bin/longhaul tail` works after `make up` with nothing exported.
	local func() string
}

// The settings shared by the agent, the operator CLI, the bench tools, the scripts and tests.
var (
	Kafka    = Setting{Flag: "kafka", Env: "LONGHAUL_KAFKA", Default: "127.0.0.1:9092", Usage: "Kafka bootstrap servers, host:port comma-separated"}
	Influx   = Setting{Flag: "influx", Env: "LONGHAUL_INFLUX", Default: "https://127.0.0.1:8086", Usage: "InfluxDB base URL (https: TLS, trusting LONGHAUL_INFLUX_CA)"}
	InfluxDB = Setting{Flag: "influx-db", Env: "LONGHAUL_INFLUX_DB", Default: "longhaul", Usage: "InfluxDB database"}
	Flink    = Setting{Flag: "flink", Env: "LONGHAUL_FLINK", Default: "https://127.0.0.1:8081", Usage: "Flink REST base URL (https: mutual TLS with --flink-cert)"}
	// FlinkCert opens Flink's REST API (mutual TLS): the stack's self-signed REST certificate and
	// its key, the one the JobManager presents and the only one it admits (docs/security.md).
	FlinkCert = Setting{Flag: "flink-cert", Env: "LONGHAUL_FLINK_CERT", Usage: "PEM file with Flink's REST certificate and its key (mutual TLS; the server must present the same certificate)", local: localFile("flink-rest.pem")}
	// FlinkState is where the cluster keeps each job's state, as a path on the cluster's hosts:
	// checkpoints/<job name>/<job id>/chk-N and savepoints/<job name>/savepoint-*. `longhaul job`
	// submits each job with its own checkpoint folder there and restores from the newest.
	FlinkState = Setting{Flag: "state-dir", Env: "LONGHAUL_FLINK_STATE_DIR", Usage: "folder of the Flink jobs' checkpoints/ and savepoints/ (a path on the cluster's hosts)", local: localStack("flink")}
	FlinkJar   = Setting{Flag: "jar", Env: "LONGHAUL_FLINK_JAR", Default: ShareDir + "/longhaul-flink.jar", Usage: "the Flink job jar"}
	Dashboards = Setting{Flag: "dashboards", Env: "LONGHAUL_DASHBOARDS", Default: "", Usage: "folder of the Grafana dashboard JSON (default: the dashboards this binary carries)"}

	// How a program authenticates to Kafka (internal/kafkaconn): TLS with the CA, SCRAM-SHA-512
	// with a user whose password is read from a file (never given on a command line).
	KafkaSecurity     = Setting{Flag: "kafka-security", Env: "LONGHAUL_KAFKA_SECURITY", Default: "sasl_ssl", Usage: "Kafka security: sasl_ssl (TLS + SCRAM-SHA-512), ssl (TLS only) or plaintext (explicitly insecure)"}
	KafkaCA           = Setting{Flag: "kafka-ca", Env: "LONGHAUL_KAFKA_CA", Usage: "PEM file of the CA that signed the brokers' certificates (empty: the system's roots)", local: localFile("ca.crt")}
	KafkaUser         = Setting{Flag: "kafka-user", Env: "LONGHAUL_KAFKA_USER", Usage: "SCRAM user", local: localUser("operator", "kafka-operator.password")}
	KafkaPasswordFile = Setting{Flag: "kafka-password-file", Env: "LONGHAUL_KAFKA_PASSWORD_FILE", Usage: "file holding the SCRAM user's password", local: localFile("kafka-operator.password")}
	KafkaCert         = Setting{Flag: "kafka-cert", Env: "LONGHAUL_KAFKA_CERT", Default: "", Usage: "PEM file with a client certificate and its key (mutual TLS, security ssl)"}

	// SecretsDir is the native stack's folder of secret files, kafka-<user>.password among them
	// (scripts/stack/lib.sh): `longhaul job submit` gives the Flink job its password file there.
	SecretsDir = Setting{Flag: "secrets-dir", Env: "LONGHAUL_SECRETS_DIR", Usage: "folder of the stack's secret files (kafka-<user>.password, ca.crt)", local: localFile("")}

	// Administration (topics, ACLs, credentials) goes to the brokers' admin listener with the
	// admin certificate (mutual TLS): no admin password exists to leak.
	KafkaAdmin = Setting{Flag: "kafka-admin", Env: "LONGHAUL_KAFKA_ADMIN", Default: "127.0.0.1:9094", Usage: "Kafka admin listener (mutual TLS), host:port comma-separated"}
	// KafkaReplication is the replication factor `longhaul setup` creates topics with; 0 keeps
	// ingest/topics.yaml's (1, the single native broker). A cluster of 3+ brokers takes 3.
	KafkaReplication = Setting{Flag: "replication-factor", Env: "LONGHAUL_KAFKA_REPLICATION", Default: "0", Usage: "replication factor of the topics setup creates (0: the topics file's)"}
	// The brokers' listener for pScheduler's Kafka archiver (mutual TLS, certificates of the CA
	// whose key is CAKey): what `longhaul admin add-pscheduler-host` tells a pScheduler host.
	KafkaArchiver  = Setting{Flag: "kafka-archiver", Env: "LONGHAUL_KAFKA_ARCHIVER", Default: "127.0.0.1:9095", Usage: "Kafka archiver listener (mutual TLS) as pScheduler hosts reach it, host:port comma-separated"}
	CAKey          = Setting{Flag: "ca-key", Env: "LONGHAUL_CA_KEY", Usage: "PEM file of the CA's private key (the CA of --kafka-ca), to issue pScheduler hosts' certificates", local: localFile("ca.key")}
	KafkaAdminCert = Setting{Flag: "kafka-admin-cert", Env: "LONGHAUL_KAFKA_ADMIN_CERT", Usage: "PEM file with the admin certificate and its key", local: localFile("admin.pem")}

	// How a program authenticates to InfluxDB (operator/influx): a user whose password is read
	// from a file, over HTTPS when the URL says so, trusting the CA.
	InfluxUser         = Setting{Flag: "influx-user", Env: "LONGHAUL_INFLUX_USER", Usage: "InfluxDB user", local: localUser("reader", "influx-reader.password")}
	InfluxPasswordFile = Setting{Flag: "influx-password-file", Env: "LONGHAUL_INFLUX_PASSWORD_FILE", Usage: "file holding the InfluxDB user's password", local: localFile("influx-reader.password")}
	InfluxCA           = Setting{Flag: "influx-ca", Env: "LONGHAUL_INFLUX_CA", Usage: "PEM file of the CA that signed InfluxDB's certificate (https URLs; empty: the system's roots)", local: localFile("ca.crt")}

	// How a program reaches Alertmanager (operator/alerting): HTTPS with basic auth, a user whose
	// password is read from a file. The alert bridge posts alerts as user bridge; `longhaul
	// silence` manages silences as the operator.
	Alertmanager             = Setting{Flag: "alertmanager", Env: "LONGHAUL_ALERTMANAGER", Default: "https://127.0.0.1:9193", Usage: "Alertmanager base URL (https: TLS, trusting LONGHAUL_ALERTMANAGER_CA)"}
	AlertmanagerUser         = Setting{Flag: "alertmanager-user", Env: "LONGHAUL_ALERTMANAGER_USER", Usage: "Alertmanager basic-auth user", local: localUser("operator", "alertmanager-operator.password")}
	AlertmanagerPasswordFile = Setting{Flag: "alertmanager-password-file", Env: "LONGHAUL_ALERTMANAGER_PASSWORD_FILE", Usage: "file holding the Alertmanager user's password", local: localFile("alertmanager-operator.password")}
	AlertmanagerCA           = Setting{Flag: "alertmanager-ca", Env: "LONGHAUL_ALERTMANAGER_CA", Usage: "PEM file of the CA that signed Alertmanager's certificate (https URLs; empty: the system's roots)", local: localFile("ca.crt")}
	// AlertContacts is the teams file (operator/alerting/contacts.sample.yaml): the alert bridge
	// labels each incident with the team owning its location, `longhaul alert-routes` routes each
	// team's incidents to it. Absent at the default path: no teams.
	AlertContacts = Setting{Flag: "contacts", Env: "LONGHAUL_ALERT_CONTACTS", Default: EtcDir + "/contacts.yaml", Usage: "YAML file of the teams owning sites, hosts, hops and ASes (absent at the default path: no teams)"}
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
	if s.Default == "" && s.local != nil {
		return s.local()
	}
	return s.Default
}

// localSecrets is the secrets folder on this host: LONGHAUL_SECRETS_DIR, else the development
// stack's (LONGHAUL_STACK_DIR/run/secrets, as scripts/stack/defaults.env names it), else the
// installed one (/etc/longhaul/secrets).
func localSecrets() string {
	if d := os.Getenv("LONGHAUL_SECRETS_DIR"); d != "" {
		return d
	}
	if d := os.Getenv(EnvStackDir); d != "" {
		return filepath.Join(d, "run", "secrets")
	}
	return filepath.Join(EtcDir, "secrets")
}

// localStack is <state>/<dir> (StateDir) when it exists.
func localStack(dir string) func() string {
	return func() string {
		p := filepath.Join(StateDir(), dir)
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
}

// localFile is the path of name in the local secrets folder when it exists ("" for the folder).
func localFile(name string) func() string {
	return func() string {
		p := filepath.Join(localSecrets(), name)
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
}

// localUser is user when the local secrets folder holds its password file.
func localUser(user, passwordFile string) func() string {
	return func() string {
		if localFile(passwordFile)() == "" {
			return ""
		}
		return user
	}
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
