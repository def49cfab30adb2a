package settings

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
)

// CAPool reads file, the PEM certificates of the CA a client verifies its server with. what names
// the setting for the errors ("kafka CA"), env its variable when it has one.
func CAPool(what, env, file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		if env != "" {
			return nil, fmt.Errorf("%s (%s): %w", what, env, err)
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s %s: no PEM certificate in it", what, file)
	}
	return pool, nil
}

// Trusting is Go's default HTTP transport trusting only pool's CAs, over TLS 1.2 or later.
func Trusting(pool *x509.CertPool) *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool}
	return tr
}
