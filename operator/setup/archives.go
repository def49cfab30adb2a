package setup

import (
	"encoding/json"
	"errors"
	"strings"
)

// What a pScheduler host's archive files say: `longhaul admin add-pscheduler-host` writes them
// for /etc/pscheduler/default-archives/, each in the form its archiver plugin reads (perfsonar/
// pscheduler: pscheduler-archiver-kafka/kafka/archive, pscheduler-archiver-http/http).

// ArchiveRetry is the retry policy both archives carry: the HTTP archiver retries by it over
// about an hour; the Kafka archiver never reaches it (perfsonar/psbridge/README.md).
var ArchiveRetry = []map[string]any{{"attempts": 5, "wait": "PT1M"}, {"attempts": 5, "wait": "PT10M"}}

// KafkaArchive is the Kafka archiver's data for one host (schema 2, SSL).
type KafkaArchive struct {
	Servers    []string // the brokers' archiver listener, host:port
	Topic      string
	ArchiverID string // the Kafka client id: the host's name
	CA, Cert   []byte // PEM
	Key        []byte // PEM, unencrypted
	// Password: the plugin reads _ssl-password whether the key is encrypted or not, and dies on
	// every result when it is missing or empty; with an unencrypted key it is never used.
	Password string
}

// JSON is the archive as the plugin reads it: the PEM *contents* (it writes each to a temporary
// file for kafka-python), and every key its code reads, schema-required or not (archiver-id,
// kafka-retries, ssl-checkhostname, _ssl-password: a missing one is a KeyError on every result).
func (k KafkaArchive) JSON() ([]byte, error) {
	if len(k.Servers) == 0 || k.Topic == "" || len(k.CA) == 0 || len(k.Cert) == 0 || len(k.Key) == 0 || k.Password == "" {
		return nil, errors.New("kafka archive: servers, topic, CA, certificate, key and password are all needed")
	}
	return indent(map[string]any{
		"archiver": "kafka",
		"data": map[string]any{
			"schema":            2,
			"server":            strings.Join(k.Servers, ","),
			"topic":             k.Topic,
			"archiver-id":       k.ArchiverID,
			"kafka-retries":     3,
			"security-protocol": "SSL",
			"_ssl-cacert":       string(k.CA),
			"_ssl-cert":         string(k.Cert),
			"_ssl-key":          string(k.Key),
			"_ssl-password":     k.Password,
			"ssl-checkhostname": true,
			"retry-policy":      ArchiveRetry,
		},
	})
}

// HTTPArchive is the HTTP archiver's data for the pScheduler bridge (schema 3: verify-ssl).
type HTTPArchive struct {
	URL   string // https://HOST:PORT/pscheduler/results
	Token string
}

// JSON is the archive: POST with the bearer token, the bridge's certificate verified (against
// the host's system store: the stack's CA must be installed there), retried by the policy.
func (h HTTPArchive) JSON() ([]byte, error) {
	if !strings.HasPrefix(h.URL, "https://") || h.Token == "" {
		return nil, errors.New("http archive: an https:// URL and a token are needed")
	}
	return indent(map[string]any{
		"archiver": "http",
		"data": map[string]any{
			"schema":       3,
			"_url":         h.URL,
			"op":           "post",
			"verify-ssl":   true,
			"_headers":     map[string]string{"Authorization": "Bearer " + h.Token, "Content-Type": "application/json"},
			"retry-policy": ArchiveRetry,
		},
	})
}

func indent(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
