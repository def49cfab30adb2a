package setup

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"longhaul/internal/certtest"
)

// testCA writes a self-signed CA (as scripts/secrets.sh makes one) and returns its files.
func testCA(t *testing.T, isCA bool) (certFile, keyFile string) {
	t.Helper()
	certPEM, keyPEM := certtest.SelfSigned(t, isCA)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "ca.crt"), filepath.Join(dir, "ca.key")
	os.WriteFile(certFile, certPEM, 0o600)
	os.WriteFile(keyFile, keyPEM, 0o600)
	return certFile, keyFile
}

func TestAnIssuedClientCertificateChainsToTheCAWithTheHostsCN(t *testing.T) {
	ca, err := LoadCA(testCA(t, true))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ca.IssueClient("pscheduler-ps1.example.org", 365*24*time.Hour, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(c.CertPEM)
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Fatalf("does not verify as a client certificate: %v", err)
	}
	// the brokers' rule RULE:^CN=([^,]+),.*$/$1/ reads the RFC 2253 form: the CN must come first
	if got := cert.Subject.String(); got != "CN=pscheduler-ps1.example.org,O=Longhaul" {
		t.Errorf("subject %q", got)
	}
	if cert.IsCA || cert.NotAfter.After(time.Now().Add(366*24*time.Hour)) {
		t.Errorf("CA %v, until %v", cert.IsCA, cert.NotAfter)
	}
	if _, err := parseKey(c.KeyPEM); err != nil {
		t.Errorf("key: %v", err)
	}
}

func TestACAWhoseKeyDoesNotMatchOrThatIsNoCAIsRefused(t *testing.T) {
	certA, _ := testCA(t, true)
	_, keyB := testCA(t, true)
	if _, err := LoadCA(certA, keyB); err == nil || !strings.Contains(err.Error(), "does not belong") {
		t.Errorf("mismatched key: %v", err)
	}
	if _, err := LoadCA(testCA(t, false)); err == nil || !strings.Contains(err.Error(), "is not a CA") {
		t.Errorf("not a CA: %v", err)
	}
}

// The Kafka archiver plugin (pscheduler-archiver-kafka/kafka/archive) reads these keys of its data
// whether the schema requires them or not; one missing is a KeyError on every result.
var kafkaPluginReads = []string{"server", "topic", "archiver-id", "kafka-retries", "security-protocol",
	"_ssl-cert", "_ssl-cacert", "_ssl-key", "_ssl-password", "ssl-checkhostname"}

func TestTheKafkaArchiveHasEveryKeyThePluginReads(t *testing.T) {
	b, err := KafkaArchive{Servers: []string{"a:9095", "b:9095"}, Topic: "longhaul.pscheduler.results", ArchiverID: "pscheduler-x",
		CA: []byte("CA PEM"), Cert: []byte("CERT PEM"), Key: []byte("KEY PEM"), Password: "p"}.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Archiver string         `json:"archiver"`
		Data     map[string]any `json:"data"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	for _, k := range kafkaPluginReads {
		if v, ok := spec.Data[k]; !ok || v == "" {
			t.Errorf("%s: %v", k, v)
		}
	}
	if spec.Archiver != "kafka" || spec.Data["schema"] != 2.0 || spec.Data["security-protocol"] != "SSL" ||
		spec.Data["server"] != "a:9095,b:9095" || spec.Data["_ssl-key"] != "KEY PEM" {
		t.Errorf("%s", b)
	}
	if _, err := (KafkaArchive{Servers: []string{"a:9095"}, Topic: "t", CA: []byte("x"), Cert: []byte("x"), Key: []byte("x")}).JSON(); err == nil {
		t.Error("an empty _ssl-password was accepted: the plugin dies on it")
	}
}

func TestTheHTTPArchivePostsWithTheBearerTokenAndVerifiesTLS(t *testing.T) {
	b, err := HTTPArchive{URL: "https://bridge.example.org:9196/pscheduler/results", Token: "T"}.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Archiver string `json:"archiver"`
		Data     struct {
			Schema  int               `json:"schema"`
			URL     string            `json:"_url"`
			Op      string            `json:"op"`
			Verify  bool              `json:"verify-ssl"`
			Headers map[string]string `json:"_headers"`
			Retry   []map[string]any  `json:"retry-policy"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	d := spec.Data
	if spec.Archiver != "http" || d.Schema != 3 || d.Op != "post" || !d.Verify || d.Headers["Authorization"] != "Bearer T" || len(d.Retry) == 0 {
		t.Errorf("%s", b)
	}
	if _, err := (HTTPArchive{URL: "http://bridge/", Token: "T"}).JSON(); err == nil {
		t.Error("a plain-http URL was accepted for a bearer token")
	}
}
