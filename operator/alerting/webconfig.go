package alerting

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/crypto/bcrypt"
	"gopkg.in/yaml.v3"

	"longhaul/internal/settings"
)

// PasswordFilePrefix starts the secret file of each Alertmanager user in the stack's secrets
// folder: alertmanager-<user>.password.
const PasswordFilePrefix = "alertmanager-"

// Users of Alertmanager's web API. Alertmanager has no roles: every user may post alerts and
// silences, so each client gets its own password (one can be rotated or revoked alone).
var Users = []string{
	"bridge",   // the alert bridge: posts alerts
	"operator", // `longhaul silence` and people
	"grafana",  // Grafana's Alertmanager datasource: shows alerts and silences
}

// WebConfig is Alertmanager's --web.config.file: TLS with certFile and keyFile (both "" for
// none) and basic auth for each user whose password file exists in secretsDir, bcrypt-hashed.
// A missing password file leaves that user out; no user at all is an error (an open API).
func WebConfig(secretsDir, certFile, keyFile string) ([]byte, error) {
	type tlsConfig struct {
		Cert       string `yaml:"cert_file"`
		Key        string `yaml:"key_file"`
		MinVersion string `yaml:"min_version"`
	}
	var doc struct {
		TLS   *tlsConfig        `yaml:"tls_server_config,omitempty"`
		Users map[string]string `yaml:"basic_auth_users"`
	}
	if certFile != "" || keyFile != "" {
		doc.TLS = &tlsConfig{Cert: certFile, Key: keyFile, MinVersion: "TLS12"}
	}
	doc.Users = map[string]string{}
	var missing []string
	for _, u := range Users {
		file := filepath.Join(secretsDir, PasswordFilePrefix+u+".password")
		pw, err := settings.Secret(file)
		if err != nil {
			missing = append(missing, u)
			continue
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
		if err != nil {
			return nil, fmt.Errorf("alertmanager user %s: %w", u, err)
		}
		doc.Users[u] = string(hash)
	}
	if len(doc.Users) == 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("no Alertmanager user has a password file in %s (want %s<user>.password for %s)",
			secretsDir, PasswordFilePrefix, strings.Join(Users, ", "))
	}
	return yaml.Marshal(doc)
}
