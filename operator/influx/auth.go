package influx

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"longhaul/internal/settings"
)

// PasswordEnv holds the InfluxDB password given by the environment instead of a file (how
// Telegraf and containers get it); LONGHAUL_INFLUX_PASSWORD_FILE wins when both are set.
const PasswordEnv = "LONGHAUL_INFLUX_PASSWORD"

// Auth is how a client authenticates: the settings' values, from flags or the environment.
type Auth struct {
	User         string // "" for anonymous (refused by a server with auth-enabled)
	PasswordFile string // read by New; or Password
	Password     string // from the environment (PasswordEnv), never from a flag
	CAFile       string // PEM of the CA that signed InfluxDB's certificate (https URLs; "": the system's roots)
}

// AuthFromEnv is the authentication the environment gives: LONGHAUL_INFLUX_USER,
// LONGHAUL_INFLUX_PASSWORD_FILE (or LONGHAUL_INFLUX_PASSWORD) and LONGHAUL_INFLUX_CA.
func AuthFromEnv() Auth {
	return Auth{
		User:         settings.InfluxUser.Value(),
		PasswordFile: settings.InfluxPasswordFile.Value(),
		Password:     os.Getenv(PasswordEnv),
		CAFile:       settings.InfluxCA.Value(),
	}
}

// New is a client of database db at url authenticating with a. It reads the password and CA
// files; every error names the setting or the file, never a secret.
func New(url, db string, a Auth) (*Client, error) {
	c := &Client{URL: url, DB: db, User: a.User, passwordFile: a.PasswordFile}
	if a.User != "" {
		if err := settings.CredentialTransport("influxdb URL", url); err != nil {
			return nil, err
		}
		switch {
		case a.PasswordFile != "":
			pw, err := settings.Secret(a.PasswordFile)
			if err != nil {
				return nil, fmt.Errorf("influxdb user %s: %w", a.User, err)
			}
			c.password = pw
		case a.Password != "":
			c.password = a.Password
		default:
			return nil, fmt.Errorf("influxdb user %s: no password (%s, or %s)", a.User, settings.InfluxPasswordFile.Env, PasswordEnv)
		}
	}
	if a.CAFile != "" && strings.HasPrefix(url, "https://") { // plain http has no certificate to check
		pool, err := settings.CAPool("influxdb CA", settings.InfluxCA.Env, a.CAFile)
		if err != nil {
			return nil, err
		}
		c.HTTP = &http.Client{Timeout: 30 * time.Second, Transport: settings.Trusting(pool)}
	}
	return c, nil
}

// FromSettings is the client the environment describes for this address and database (the
// --influx and --influx-db flags' values).
func FromSettings(url, db string) (*Client, error) { return New(url, db, AuthFromEnv()) }

// WithUser is a copy of c that authenticates as user with password (`longhaul setup` checks
// the users it creates this way).
func (c *Client) WithUser(user, password string) *Client {
	cp := *c
	cp.User, cp.password, cp.passwordFile = user, password, ""
	return &cp
}

// RefusedError is InfluxDB's refusal of a request: 401 (no or wrong credentials) or 403 (the
// user lacks the privilege). Message is InfluxDB's own; the password is never part of it.
type RefusedError struct {
	URL          string
	User         string // "" when no credentials were sent
	PasswordFile string // where the password came from, if a file
	Status       int
	Message      string
}

func (e *RefusedError) Error() string {
	who := fmt.Sprintf("user %q", e.User)
	if e.User == "" {
		who = "anonymous access"
	}
	s := fmt.Sprintf("influxdb %s refused %s (HTTP %d: %s)", e.URL, who, e.Status, e.Message)
	switch {
	case e.User == "":
		s += fmt.Sprintf(": authentication is on; set %s and %s", settings.InfluxUser.Env, settings.InfluxPasswordFile.Env)
	case e.Status == http.StatusUnauthorized && e.PasswordFile != "":
		s += fmt.Sprintf(": wrong password in %s, or no such user", e.PasswordFile)
	case e.Status == http.StatusUnauthorized:
		s += ": wrong password, or no such user"
	case e.Status == http.StatusForbidden:
		s += ": the user lacks this privilege (writer may only write, reader only read; setup needs an admin)"
	}
	return s
}

// Refused reports whether err is InfluxDB refusing the credentials or their privileges (a
// configuration to fix, not an outage to wait out).
func Refused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// tlsHint adds what to set to an error of an https connection whose certificate did not verify.
func tlsHint(err error) error {
	var unknown x509.UnknownAuthorityError
	if errors.As(err, &unknown) || strings.Contains(err.Error(), "certificate signed by unknown authority") {
		return fmt.Errorf("%w (set %s to the CA that signed InfluxDB's certificate)", err, settings.InfluxCA.Env)
	}
	return err
}

// redact replaces every occurrence of secret in err's text (statements that carry a password).
// A refusal stays a RefusedError.
func redact(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	var r *RefusedError
	if errors.As(err, &r) {
		cp := *r
		cp.Message = strings.ReplaceAll(cp.Message, secret, "[REDACTED]")
		if !strings.Contains(cp.Error(), secret) {
			return &cp
		}
	}
	return errors.New(strings.ReplaceAll(err.Error(), secret, "[REDACTED]"))
}
