package flink

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key into one PEM file, as
// scripts/stack/lib.sh makes flink-rest.pem, and returns the file and the pair.
func selfSigned(t *testing.T, name string) (string, tls.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	b := append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})...)
	file := filepath.Join(t.TempDir(), name+".pem")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	pair, err := tls.X509KeyPair(b, b)
	if err != nil {
		t.Fatal(err)
	}
	return file, pair
}

// restServer is a Flink REST endpoint with mutual TLS as the stack configures it: it presents
// `own` and admits only clients presenting the certificate in `admits`.
func restServer(t *testing.T, own tls.Certificate, admits tls.Certificate) *httptest.Server {
	t.Helper()
	pool := x509.NewCertPool()
	leaf, err := x509.ParseCertificate(admits.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	pool.AddCert(leaf)
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"jobs":[{"jid":"j1","name":"longhaul-x","state":"RUNNING"}]}`))
	}))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	s.TLS = &tls.Config{Certificates: []tls.Certificate{own}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func TestTheRESTCertificateOpensTheAPIThatPresentsIt(t *testing.T) {
	file, pair := selfSigned(t, "flink-rest")
	s := restServer(t, pair, pair)
	c, err := New(s.URL, file)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := c.Jobs(context.Background())
	if err != nil || len(jobs) != 1 || jobs[0].ID != "j1" {
		t.Fatalf("jobs %v, %v", jobs, err)
	}
}

func TestAClientTrustsNoServerButTheOnePresentingItsCertificate(t *testing.T) {
	file, pair := selfSigned(t, "flink-rest")
	_, other := selfSigned(t, "other")
	// a server presenting another certificate (one of the stack's CA, say) is not trusted, even
	// if it would admit the client
	c, err := New(restServer(t, other, pair).URL, file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Jobs(context.Background()); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a server with another certificate was trusted: %v", err)
	}
}

func TestAnHTTPSEndpointNeedsTheCertificate(t *testing.T) {
	if _, err := New("https://127.0.0.1:8081", ""); err == nil || !strings.Contains(err.Error(), "--flink-cert") {
		t.Fatalf("no certificate for an https endpoint: %v", err)
	}
	if _, err := New("https://127.0.0.1:8081", filepath.Join(t.TempDir(), "absent.pem")); err == nil {
		t.Fatal("a missing certificate file was taken")
	}
	c, err := New("http://127.0.0.1:8081", "")
	if err != nil || c.HTTP != nil {
		t.Fatalf("a plain endpoint takes no certificate: %v", err)
	}
}
