// Package kafkaconn is how every Longhaul Go program connects to Kafka: the agent's producer,
// `longhaul tail`, `setup` and `admin`, and the bench generator take their connection options
// from here, so how Longhaul reaches its brokers (addresses, TLS, SCRAM credentials) is
// written once. Security is on unless a setting turns it off by name (plaintext).
//
// It is also how they read: ReadToEnd reads a topic up to its end once, Follow follows one until
// the program stops, and both treat a refusal alike (Refusal, FetchRefusal): it is reported with
// its reason and ends the read, never retried silently.
package kafkaconn

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"longhaul/internal/settings"
)

// The security modes, as settings name them.
const (
	SASLSSL   = "sasl_ssl"  // TLS + SCRAM-SHA-512: the default
	SSL       = "ssl"       // TLS only (mutual TLS when a client certificate is given)
	Plaintext = "plaintext" // no TLS, no authentication: only when a setting says so
)

// Conn is where the brokers are and how to authenticate to them.
type Conn struct {
	Bootstrap []string // host:port of one or more brokers
	Security  string   // SASLSSL, SSL or Plaintext
	CAFile    string   // PEM of the CA that signed the brokers' certificates ("": system roots)
	CertFile  string   // client certificate for mutual TLS (PEM; optional)
	KeyFile   string   // its key (PEM; CertFile when empty)
	User      string   // SCRAM user (SASLSSL)
	password  string   // never printed: see String
}

// Parse reads a comma-separated bootstrap list (the --kafka flag, LONGHAUL_KAFKA or the
// agent's kafka.bootstrap), checking each address; security is still to be set (WithSecurity).
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
	return Conn{Bootstrap: addrs, Security: SASLSSL}, nil
}

// Security is how a Conn authenticates: the settings' values, from flags, environment or a
// config file.
type Security struct {
	Mode         string // SASLSSL (default when empty), SSL or Plaintext
	CAFile       string
	CertFile     string
	KeyFile      string
	User         string
	PasswordFile string // read here; or Password
	Password     string // from the environment (LONGHAUL_KAFKA_PASSWORD), never from a file of config
}

// FromEnv is the security the environment gives (LONGHAUL_KAFKA_SECURITY, _CA, _CERT, _USER,
// _PASSWORD_FILE, or _PASSWORD).
func FromEnv() Security {
	return Security{
		Mode:         settings.KafkaSecurity.Value(),
		CAFile:       settings.KafkaCA.Value(),
		CertFile:     settings.KafkaCert.Value(),
		User:         settings.KafkaUser.Value(),
		PasswordFile: settings.KafkaPasswordFile.Value(),
		Password:     os.Getenv(PasswordEnv),
	}
}

// PasswordEnv holds a SCRAM password given by the environment instead of a file.
const PasswordEnv = "LONGHAUL_KAFKA_PASSWORD"

// WithSecurity checks s and sets it on c, reading the password file. Every error names the
// setting (and a file by its path), never a secret.
func (c Conn) WithSecurity(s Security) (Conn, error) {
	mode := s.Mode
	if mode == "" {
		mode = SASLSSL
	}
	switch mode {
	case Plaintext:
		c.Security = Plaintext
		return c, nil
	case SSL, SASLSSL:
	default:
		return c, fmt.Errorf("%s: %q is not %s, %s or %s", settings.KafkaSecurity.Env, mode, SASLSSL, SSL, Plaintext)
	}
	c.Security, c.CAFile, c.CertFile, c.KeyFile = mode, s.CAFile, s.CertFile, s.KeyFile
	if c.KeyFile == "" {
		c.KeyFile = c.CertFile
	}
	if mode == SSL {
		return c, nil
	}
	if s.User == "" {
		return c, fmt.Errorf("kafka security %s needs a SCRAM user (%s or the config's sasl user)", SASLSSL, settings.KafkaUser.Env)
	}
	c.User = s.User
	switch {
	case s.PasswordFile != "":
		pw, err := settings.Secret(s.PasswordFile)
		if err != nil {
			return c, fmt.Errorf("kafka user %s: %w", s.User, err)
		}
		c.password = pw
	case s.Password != "":
		c.password = s.Password
	default:
		return c, fmt.Errorf("kafka user %s: no password (%s, or %s)", s.User, settings.KafkaPasswordFile.Env, PasswordEnv)
	}
	return c, nil
}

// FromSettings is the connection the environment describes, with this bootstrap list (a
// --kafka flag's value): what the operator CLI and the bench use.
func FromSettings(bootstrap string) (Conn, error) {
	c, err := Parse(bootstrap)
	if err != nil {
		return c, err
	}
	return c.WithSecurity(FromEnv())
}

// AdminFromSettings is the administrator's connection: the admin listener with the admin
// certificate (mutual TLS), or, when the settings turn security off, the plain bootstrap list.
func AdminFromSettings(admin, cert string) (Conn, error) {
	env := FromEnv()
	if env.Mode == Plaintext {
		return FromSettings(settings.Kafka.Value())
	}
	c, err := Parse(admin)
	if err != nil {
		return c, err
	}
	if cert == "" {
		return c, fmt.Errorf("kafka administration needs the admin certificate (%s)", settings.KafkaAdminCert.Env)
	}
	return c.WithSecurity(Security{Mode: SSL, CAFile: env.CAFile, CertFile: cert})
}

// String describes the connection for logs: never the password.
func (c Conn) String() string {
	s := fmt.Sprintf("%v %s", c.Bootstrap, c.Security)
	if c.User != "" {
		s += " user " + c.User
	}
	return s
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

// Opts are the client options of the connection; callers add their own (consumer or
// producer). It reads the CA and client certificate files.
func (c Conn) Opts() ([]kgo.Opt, error) {
	opts := []kgo.Opt{kgo.SeedBrokers(c.Bootstrap...)}
	if c.Security == Plaintext {
		return opts, nil
	}
	cfg, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	opts = append(opts, kgo.DialTLSConfig(cfg))
	if c.Security == SASLSSL {
		opts = append(opts, kgo.SASL(scram.Auth{User: c.User, Pass: c.password}.AsSha512Mechanism()))
	}
	return opts, nil
}

func (c Conn) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pool, err := settings.CAPool("kafka CA", "", c.CAFile)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("kafka client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// NewClient is a franz-go client on the connection, with the caller's own options added.
func (c Conn) NewClient(extra ...kgo.Opt) (*kgo.Client, error) {
	opts, err := c.Opts()
	if err != nil {
		return nil, err
	}
	return kgo.NewClient(append(opts, extra...)...)
}

// NewAdmin is an admin client on a new connection (NewClient); closing it closes the connection.
func (c Conn) NewAdmin() (*kadm.Client, error) {
	cl, err := c.NewClient()
	if err != nil {
		return nil, err
	}
	return kadm.NewClient(cl), nil
}
