package flink

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// New is the client of the cluster whose REST endpoint is at url. An https endpoint is Flink's
// REST API with mutual TLS (security.ssl.rest.authentication-enabled, docs/security.md): the
// client presents the certificate and key of certFile (PEM, both in one file) and trusts that
// certificate alone for the server. The stack makes it self-signed and gives the same one to the
// JobManager (its keystore and its truststore), so no other certificate, not even one of the
// stack's own CA, opens the API. A plain http url takes no certificate.
func New(url, certFile string) (*Client, error) {
	if !strings.HasPrefix(url, "https://") {
		return &Client{URL: url}, nil
	}
	if certFile == "" {
		return nil, fmt.Errorf("flink %s: no client certificate (--flink-cert or LONGHAUL_FLINK_CERT): Flink's REST API admits a client only with its certificate", url)
	}
	cfg, err := mutualTLS(certFile)
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = cfg
	return &Client{URL: url, HTTP: &http.Client{Timeout: 2 * time.Minute, Transport: tr}}, nil
}

// mutualTLS presents certFile's certificate and trusts it alone as the server's.
func mutualTLS(certFile string) (*tls.Config, error) {
	pem, err := os.ReadFile(certFile)
	if err != nil {
		return nil, fmt.Errorf("flink client certificate: %w", err)
	}
	pair, err := tls.X509KeyPair(pem, pem)
	if err != nil {
		return nil, fmt.Errorf("flink client certificate %s: %w", certFile, err)
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("flink client certificate %s: %w", certFile, err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}, RootCAs: pool}, nil
}
