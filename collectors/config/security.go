package config

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
)

// How the agent authenticates to Kafka (issue 14). Security is on unless the config or the
// environment names plaintext: TLS with the CA in kafka.tls.ca_file and SCRAM-SHA-512 with
// kafka.sasl.user, whose password is read from kafka.sasl.password_file (or given in
// LONGHAUL_KAFKA_PASSWORD) when the agent connects, and again at each re-check while Kafka
// refuses it: fixing the file mends a refused agent without a restart. A password is never
// written in the config. Each setting has the one environment variable every Longhaul program
// reads (internal/settings), and the environment wins over the file, as for kafka.bootstrap.
const (
	SecurityKey     = "kafka.security"
	CAKey           = "kafka.tls.ca_file"
	CertKey         = "kafka.tls.cert_file"
	KeyKey          = "kafka.tls.key_file"
	UserKey         = "kafka.sasl.user"
	PasswordFileKey = "kafka.sasl.password_file"
	PasswordKey     = "kafka.sasl.password" // refused
)

// DefaultSecurity is kafka.security when neither the file nor the environment sets it.
const DefaultSecurity = kafkaconn.SASLSSL

// PasswordEnv gives the password itself, instead of a file.
const PasswordEnv = kafkaconn.PasswordEnv

// securitySettings are the keys the environment may replace, with their variables.
var securitySettings = []struct {
	key   string
	env   string
	field func(*Kafka) *string
}{
	{SecurityKey, settings.KafkaSecurity.Env, func(k *Kafka) *string { return &k.Security }},
	{CAKey, settings.KafkaCA.Env, func(k *Kafka) *string { return &k.TLS.CAFile }},
	{CertKey, settings.KafkaCert.Env, func(k *Kafka) *string { return &k.TLS.CertFile }},
	{UserKey, settings.KafkaUser.Env, func(k *Kafka) *string { return &k.SASL.User }},
	{PasswordFileKey, settings.KafkaPasswordFile.Env, func(k *Kafka) *string { return &k.SASL.PasswordFile }},
}

// inlineSecret is a password written in the config: refused. It keeps only the line it was
// written on, so no error, log or %+v of the config can show the value.
type inlineSecret struct{ line int }

// UnmarshalYAML notes where the secret was written and drops it.
func (s *inlineSecret) UnmarshalYAML(n *yaml.Node) error {
	s.line = n.Line
	return nil
}

// resolveSecurity applies the environment over the file's security keys, recording where
// each value came from so messages name it.
func (c *Config) resolveSecurity(opt Options) {
	c.from = map[string]string{}
	c.getenv = opt.Getenv
	for _, s := range securitySettings {
		c.from[s.key] = s.key
		if opt.Getenv == nil {
			continue
		}
		if v := opt.Getenv(s.env); v != "" {
			*s.field(&c.Kafka) = v
			c.from[s.key] = s.env
		}
	}
	// The password itself in the environment wins over the file's password_file, and yields
	// to a password file named in the environment.
	if c.from[PasswordFileKey] == PasswordFileKey && c.envPassword() != "" {
		c.Kafka.SASL.PasswordFile = ""
		c.from[PasswordFileKey] = PasswordEnv
	}
}

func (c *Config) envPassword() string {
	if c.getenv == nil {
		return ""
	}
	return c.getenv(PasswordEnv)
}

// validateSecurity checks the security settings without reading any file: the files are read
// when the agent connects (CheckKafkaFiles says up front whether they can be).
func (c *Config) validateSecurity(l *errorList) {
	k := &c.Kafka
	bad := func(key, format string, args ...any) {
		if from := c.rawFrom(key); from != key {
			l.outside(from, fmt.Sprintf(format, args...))
			return
		}
		l.at(key, format, args...)
	}
	if k.SASL.Password.line > 0 {
		l.atLine(k.SASL.Password.line, PasswordKey, fmt.Sprintf("a password is never written in the config: "+
			"put it in a file only the agent's user can read (mode 0600) and name that file in %s "+
			"(or give it in %s)", PasswordFileKey, PasswordEnv))
	}
	inFile := func(key string) bool { return c.rawFrom(key) == key }
	switch k.Security {
	case kafkaconn.Plaintext:
		for _, key := range []string{CAKey, CertKey, UserKey, PasswordFileKey} {
			if inFile(key) && *fieldOf(k, key) != "" {
				bad(key, "not used with %s plaintext (no TLS, no authentication): remove it, or use sasl_ssl", SecurityKey)
			}
		}
		where := c.from[SecurityKey]
		if inFile(SecurityKey) {
			where = fmt.Sprintf("%s:%d: %s", c.file, l.idx.line(SecurityKey), SecurityKey)
		}
		c.warnings = append(c.warnings, where+" is plaintext: samples cross the network in clear "+
			"and Kafka cannot tell this agent from anyone else")
		return
	case kafkaconn.SSL:
		for _, key := range []string{UserKey, PasswordFileKey} {
			if inFile(key) && *fieldOf(k, key) != "" {
				bad(key, "not used with %s ssl (TLS only, no SCRAM): remove it, or use sasl_ssl", SecurityKey)
			}
		}
	case kafkaconn.SASLSSL:
		if k.SASL.User == "" {
			bad(UserKey, "required with %s sasl_ssl: the agent's Kafka user, agent-<site> (or %s)", SecurityKey, settings.KafkaUser.Env)
		}
		if k.SASL.PasswordFile == "" && c.envPassword() == "" {
			bad(PasswordFileKey, "required with %s sasl_ssl: the file holding the user's password (or %s, %s)",
				SecurityKey, settings.KafkaPasswordFile.Env, PasswordEnv)
		}
	default:
		bad(SecurityKey, "%q is not %s, %s or %s", k.Security, kafkaconn.SASLSSL, kafkaconn.SSL, kafkaconn.Plaintext)
		return
	}
	if k.TLS.KeyFile != "" && k.TLS.CertFile == "" {
		bad(KeyKey, "a key without a certificate: set %s too (or remove it)", CertKey)
	}
}

// rawFrom is the key, or the variable that replaced its value.
func (c *Config) rawFrom(key string) string {
	if from := c.from[key]; from != "" {
		return from
	}
	return key
}

func fieldOf(k *Kafka, key string) *string {
	for _, s := range securitySettings {
		if s.key == key {
			return s.field(k)
		}
	}
	panic("config: no security setting " + key)
}

// SecurityFrom names where a security setting came from: its key in the file, the
// environment variable that replaced it (LONGHAUL_KAFKA_PASSWORD for a password given itself),
// or "default" for kafka.security set by neither.
func (c *Config) SecurityFrom(key string) string {
	from := c.from[key]
	switch {
	case from == "":
		return key
	case from == SecurityKey && c.idx.node(SecurityKey) == nil:
		return "default"
	}
	return from
}

// KafkaSecurity is the agent's security as internal/kafkaconn takes it. It reads no file;
// the password from the environment, if that is where it comes from, is in it: never log it.
func (c *Config) KafkaSecurity() kafkaconn.Security {
	k := c.Kafka
	s := kafkaconn.Security{Mode: k.Security, CAFile: k.TLS.CAFile, CertFile: k.TLS.CertFile, KeyFile: k.TLS.KeyFile,
		User: k.SASL.User, PasswordFile: k.SASL.PasswordFile}
	if s.PasswordFile == "" && k.Security == kafkaconn.SASLSSL {
		s.Password = c.envPassword()
	}
	return s
}

// KafkaConn is the agent's Kafka connection, reading the password file now: the agent calls
// it at start and again at each re-check while Kafka refuses it. Errors name the setting (and
// a file by its path), never a secret.
func (c *Config) KafkaConn() (kafkaconn.Conn, error) {
	conn := kafkaconn.Conn{Bootstrap: c.Kafka.Bootstrap, Security: kafkaconn.SASLSSL}
	if err := c.checkPassword(); err != nil {
		return conn, err
	}
	return conn.WithSecurity(c.KafkaSecurity())
}

// checkPassword reads the password file as kafkaconn will, naming the setting it came from.
func (c *Config) checkPassword() error {
	k := c.Kafka
	if k.Security != kafkaconn.SASLSSL || k.SASL.PasswordFile == "" {
		return nil
	}
	if _, err := settings.Secret(k.SASL.PasswordFile); err != nil {
		return fmt.Errorf("%s: %v", c.SecurityFrom(PasswordFileKey), err)
	}
	return nil
}

// CheckKafkaFiles reads every file the Kafka connection needs, as connecting will: the
// password file, the CA, the client certificate and key. Each problem is one error naming
// FILE:LINE and the key (or the variable that gave the path), never a file's content. The
// admission check (longhaul-probe check) reports them up front.
func (c *Config) CheckKafkaFiles() error {
	l := &errorList{file: c.file, idx: c.idx}
	k := c.Kafka
	report := func(key string, err error) {
		msg := err.Error()
		if from := c.rawFrom(key); from != key {
			l.outside(from, msg)
		} else {
			l.at(key, "%s", msg)
		}
	}
	if k.Security == kafkaconn.Plaintext {
		return nil
	}
	if k.Security == kafkaconn.SASLSSL && k.SASL.PasswordFile != "" {
		if _, err := settings.Secret(k.SASL.PasswordFile); err != nil {
			report(PasswordFileKey, err)
		}
	}
	if k.TLS.CAFile != "" {
		if pem, err := os.ReadFile(k.TLS.CAFile); err != nil {
			report(CAKey, err)
		} else if !x509.NewCertPool().AppendCertsFromPEM(pem) {
			report(CAKey, fmt.Errorf("%s holds no PEM certificate", k.TLS.CAFile))
		}
	}
	if k.TLS.CertFile != "" {
		key := k.TLS.KeyFile
		if key == "" {
			key = k.TLS.CertFile
		}
		if _, err := tls.LoadX509KeyPair(k.TLS.CertFile, key); err != nil {
			report(CertKey, fmt.Errorf("certificate and key: %s", strings.TrimPrefix(err.Error(), "tls: ")))
		}
	}
	return l.err()
}
