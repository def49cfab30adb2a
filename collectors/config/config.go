// Package config is the typed configuration of longhaul-probe: one YAML file per host naming
// the host, its Kafka bootstrap address, the on-disk spool, the health endpoint, the targets of
// the mesh and the probes run against them. Load decodes it strictly (unknown fields are
// errors), takes the settings given outside the file (settings.go: flag > environment > file),
// applies every default in one place (defaults.go) and validates it; every error names
// FILE:LINE and the field path. The sample config (sample.yaml and each kind's, printed by
// `longhaul-probe config sample`) documents each field with its default; tests hold it to the
// code.
package config

import "gopkg.in/yaml.v3"

// Config is one agent's configuration.
type Config struct {
	// Src is this host's name in the mesh: the src of every sample it publishes. Required.
	Src      string   `yaml:"src"`
	Kafka    Kafka    `yaml:"kafka"`
	Spool    Spool    `yaml:"spool"`
	Health   Health   `yaml:"health"`
	Schedule Schedule `yaml:"schedule"`
	// SchemasDir is a folder of *.schema.json; samples that do not validate go to the
	// dead-letter topic. Empty: the schemas the binary carries; "off" disables validation.
	SchemasDir string   `yaml:"schemas_dir"`
	Targets    []Target `yaml:"targets"`
	Probes     []Probe  `yaml:"probes"`
	// PSConfig takes (more of) the plan from a pSConfig template: off while its URL is empty.
	PSConfig PSConfig `yaml:"psconfig"`
	// PSBridge takes pScheduler's results from its archivers (HTTP, Kafka) and publishes them
	// as samples: off while it has neither listen nor topic.
	PSBridge PSBridge `yaml:"pscheduler_bridge"`
	// ProbeRequests takes the Flink job's requests for extra throughput runs (requests.go).
	ProbeRequests ProbeRequests `yaml:"probe_requests"`

	file      string              // the file it was loaded from, for error messages
	root      *yaml.Node          // the parsed document
	idx       *nodeIndex          // line numbers of its fields
	kafkaFrom string              // where Kafka.Bootstrap came from: a key of the file, a flag or a variable
	from      map[string]string   // where each security setting came from (security.go)
	getenv    func(string) string // the environment the password may come from; nil: none
	warnings  []string            // deprecated names and insecure settings in use
}

// Kafka is the producer side: one long-lived client. Defaults are in defaults.go.
type Kafka struct {
	// Bootstrap is where the client finds the cluster: host:port of one or more brokers.
	// Required; --kafka and LONGHAUL_KAFKA replace it (settings.go).
	Bootstrap HostPorts `yaml:"bootstrap"`
	// Brokers is the deprecated name of Bootstrap: Load moves it there with a warning.
	Brokers  HostPorts `yaml:"brokers"`
	ClientID string    `yaml:"client_id"` // "longhaul-probe-<src>" when empty
	// MaxInFlight bounds how many spooled samples are handed to the client before Kafka has
	// acknowledged them.
	MaxInFlight int `yaml:"max_in_flight"`
	// Security is how the agent reaches the brokers (security.go): sasl_ssl (TLS + SCRAM,
	// the default), ssl (TLS; mutual with a client certificate) or plaintext, only when
	// written. LONGHAUL_KAFKA_SECURITY replaces it.
	Security string    `yaml:"security"`
	TLS      KafkaTLS  `yaml:"tls"`
	SASL     KafkaSASL `yaml:"sasl"`
}

// KafkaTLS are the TLS files, PEM. They are read when the agent connects (and again at each
// re-check while Kafka refuses it), not when the config loads.
type KafkaTLS struct {
	// CAFile signed the brokers' certificates; empty: the system's roots.
	// LONGHAUL_KAFKA_CA replaces it.
	CAFile   string `yaml:"ca_file"`
	CertFile string `yaml:"cert_file"` // the agent's certificate, for mutual TLS (optional)
	KeyFile  string `yaml:"key_file"`  // its key; default: cert_file (key and certificate in one PEM)
}

// KafkaSASL is the agent's SCRAM-SHA-512 credential (security sasl_ssl).
type KafkaSASL struct {
	User string `yaml:"user"` // agent-<site>, as `longhaul admin add-agent` made it; LONGHAUL_KAFKA_USER
	// PasswordFile holds the password (the whole file, a trailing newline ignored), readable
	// only by the agent's user; LONGHAUL_KAFKA_PASSWORD_FILE replaces it, or the password
	// itself in LONGHAUL_KAFKA_PASSWORD.
	PasswordFile string `yaml:"password_file"`
	// Password is refused: a password is never written in the config. Only where it was
	// written is kept, for the error; never the value.
	Password inlineSecret `yaml:"password"`
}

// Spool is the on-disk queue every sample goes through before Kafka.
type Spool struct {
	Dir          string   `yaml:"dir"`
	MaxBytes     ByteSize `yaml:"max_bytes"`
	SegmentBytes ByteSize `yaml:"segment_bytes"`
	// Fsync is "always" (after every batch of samples, before the run is considered
	// recorded), "interval" (every FsyncInterval) or "never" (left to the kernel).
	Fsync         string   `yaml:"fsync"`
	FsyncInterval Duration `yaml:"fsync_interval"`
}

// Health is the HTTP endpoint and the periodic log line.
type Health struct {
	Listen   string   `yaml:"listen"`    // "off" disables the endpoint
	LogEvery Duration `yaml:"log_every"` // the periodic health log line
}

// Schedule tunes the scheduler.
type Schedule struct {
	// MaxBackground bounds concurrent background (non-exclusive) runs.
	MaxBackground int `yaml:"max_background"`
}

// Target is one host of the mesh this host measures against.
type Target struct {
	Name    string `yaml:"name"`    // the dst of samples; required, unique
	Address string `yaml:"address"` // what the tool is pointed at; default: Name
	// Shared targets are tested by other hosts too: exclusive probes take a slot offset
	// derived from (src, target) so the hosts sharing it spread out (see schedule/).
	Shared bool              `yaml:"shared"`
	Labels map[string]string `yaml:"labels"`
}

// Probe is one measurement run against a set of targets at an interval.
type Probe struct {
	ID      string    `yaml:"id"`      // required, unique; the probe_id of samples
	Kind    string    `yaml:"kind"`    // a registered probe kind (probe.Kinds())
	Targets TargetSel `yaml:"targets"` // a list of target names, or "all" (when absent)
	// Interval between runs of each (probe, target) pair. Required.
	Interval Duration `yaml:"interval"`
	// Jitter is the random slip: each run starts in [slot, slot+jitter). Nil: interval/4.
	Jitter *Duration `yaml:"jitter"`
	// MaxWait is how long past its planned start a run may wait for its turn (an exclusive
	// run in progress) before it is reported not_started. Nil: the interval. A run never
	// waits past the planned start of the pair's next run.
	MaxWait *Duration `yaml:"max_wait"`
	// Screens makes this throughput probe a short screening burst for the throughput probe of
	// that id (same targets): run often and briefly, it is judged against its own baseline, and
	// a low one makes the Flink job ask for a run of the screened probe at once, which alerts
	// when it is low too. It loads the path where RTT, loss and traces cannot see a policer.
	// Empty: a probe of its own.
	Screens string `yaml:"screens"`
	// Params is passed as is to the kind's Factory.
	Params yaml.Node `yaml:"params"`
}

// PSConfig names a pSConfig template the agent takes its plan from, beside its targets and
// probes (perfsonar/psconfig; its README.md). Defaults are in defaults.go.
type PSConfig struct {
	// URL is an https:// URL (e.g. https://psconfig.opensciencegrid.org/pub/auto/<FQDN>), a
	// file:// URL or a path. Empty: no pSConfig.
	URL string `yaml:"url"`
	// Refresh is how often it is fetched again (a conditional request: ETag, Last-Modified).
	Refresh Duration `yaml:"refresh"`
	// Timeout bounds one fetch.
	Timeout Duration `yaml:"timeout"`
	// CAFile verifies the server (PEM); empty: the system's roots.
	CAFile string `yaml:"ca_file"`
	// MatchAddresses are this host's addresses in the template (names of addresses, or
	// addresses as written): the plan is the pairs they schedule. Empty: src, the host name
	// and the addresses of the host's interfaces, as pSConfig's agent detects them.
	MatchAddresses []string `yaml:"match_addresses"`
	// Screen adds a screening burst (Probe.Screens) beside each TCP throughput pair of the plan:
	// the pair's test, Screen.Duration long, every Screen.Interval.
	Screen PSConfigScreen `yaml:"screen"`
	// Limits are this host's ceilings on what the template may make it run.
	Limits PSConfigLimits `yaml:"limits"`
}

// PSConfigScreen is the screening burst of the plan's throughput pairs. Off while Interval is 0.
type PSConfigScreen struct {
	Interval Duration `yaml:"interval"` // e.g. 10m; 0: no bursts
	Duration Duration `yaml:"duration"` // of one burst, whole seconds (default 2s)
}

// Enabled says whether a template is configured.
func (p PSConfig) Enabled() bool { return p.URL != "" }

// PSBridge is the pScheduler bridge (perfsonar/psbridge; its README.md): the
// agent converts every result pScheduler's archivers deliver into samples, through its spool.
// Defaults are in defaults.go.
type PSBridge struct {
	// Listen is where the HTTP archiver posts (host:port); empty: no HTTP endpoint. Anything
	// but a loopback address needs tls_cert_file and tls_key_file.
	Listen string `yaml:"listen"`
	// Path is the endpoint's path, the archiver's _url without scheme and host.
	Path string `yaml:"path"`
	// TLSCertFile and TLSKeyFile are the endpoint's certificate and key (PEM).
	TLSCertFile string `yaml:"tls_cert_file"`
	TLSKeyFile  string `yaml:"tls_key_file"`
	// TokenFile holds the bearer token archivers send (their _headers: "Authorization":
	// "Bearer TOKEN"), the one every host's HTTP archiver shares (identity http). A token is
	// never written in the config.
	TokenFile string `yaml:"token_file"`
	// HostTokensDir is a folder of tokens, one per pScheduler host: NAME.token is host NAME's
	// (identity http-NAME; `longhaul admin add-pscheduler-host NAME --bridge-url URL` writes it
	// beside the host's archive files and prints where each goes). Deleting a file revokes that
	// host from its next post; the folder is read again whenever it changes. Listen needs
	// token_file, host_tokens_dir or both.
	HostTokensDir string `yaml:"host_tokens_dir"`
	// MaxBody bounds one posted result.
	MaxBody ByteSize `yaml:"max_body"`
	// MaxConcurrent bounds the results read and converted at once (more wait for a slot, then 429): with MaxBody
	// and MaxSamples, it bounds what the bridge holds in memory.
	MaxConcurrent int `yaml:"max_concurrent"`
	// HostRate and HostBurst bound how fast one host's own token (host_tokens_dir) may post:
	// results a second on average, and at once; beyond, 429 (psbridge.HostRate). The shared
	// token is every host's and is not bound per host.
	HostRate  float64 `yaml:"host_rate"`
	HostBurst int     `yaml:"host_burst"`
	// MaxSamples bounds the samples one result may make; a result that makes more is
	// dead-lettered with the reason (a pScheduler result makes hundreds, a long one thousands).
	MaxSamples int `yaml:"max_samples"`
	// Topic is the Kafka topic the Kafka archiver writes (the contract's pscheduler.results
	// topic); empty: no Kafka input. Read as the agent's Kafka user, in Group.
	Topic string `yaml:"topic"`
	Group string `yaml:"group"`
	// SeenFile keeps the ids of the results already converted, so an archiver's retry (the
	// same result again) adds nothing, also across restarts; SeenCapacity bounds how many are
	// kept (the oldest go first).
	SeenFile     string `yaml:"seen_file"`
	SeenCapacity int    `yaml:"seen_capacity"`
	// Hosts are the hosts each identity may deliver results for: a pScheduler host's certificate
	// (pscheduler-NAME, writing its own topic of Topic: `longhaul admin add-pscheduler-host`), the
	// certificate every host shared (pscheduler, writing Topic itself), the HTTP endpoint's shared
	// token (http) and a host's own token (http-NAME, in HostTokensDir). A result is a dead letter unless each of its tests has its source or destination
	// among its identity's hosts. Unset: any identity for any host (said at start).
	Hosts map[string][]string `yaml:"hosts"`
}

// Enabled says whether the bridge has an input.
func (b PSBridge) Enabled() bool { return b.Listen != "" || b.Topic != "" }

// File is the path the configuration was loaded from.
func (c *Config) File() string { return c.file }

// KafkaFrom names where Kafka.Bootstrap came from: "kafka.bootstrap" (the file), the
// deprecated "kafka.brokers", a flag ("--kafka") or a variable ("LONGHAUL_KAFKA").
func (c *Config) KafkaFrom() string { return c.kafkaFrom }

// Warnings are the deprecated names the config was given with (a key of the file, with its
// FILE:LINE, or an environment variable), one line each, naming the new name; and a
// plaintext Kafka connection, said once.
func (c *Config) Warnings() []string { return c.warnings }
