package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"longhaul/perfsonar/psconfig"
)

// Archive is the data of an HTTP archive file as `longhaul admin add-pscheduler-host` writes it
// and pscheduler-archiver-http/http/archive reads it.
type Archive struct {
	URL       string            `json:"_url"`
	Op        string            `json:"op"`
	VerifySSL bool              `json:"verify-ssl"`
	Headers   map[string]string `json:"_headers"`
	Timeout   string            `json:"timeout"`
	Retry     []RetryStep       `json:"retry-policy"`
}

// RetryStep is one step of a retry policy: attempts retries, wait apart.
type RetryStep struct {
	Attempts int    `json:"attempts"`
	Wait     string `json:"wait"`
}

// ReadArchive reads an archive file ({"archiver": "http", "data": {...}}).
func ReadArchive(path string) (Archive, error) {
	var f struct {
		Archiver string  `json:"archiver"`
		Data     Archive `json:"data"`
	}
	raw, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(raw, &f)
	}
	switch {
	case err != nil:
		return Archive{}, fmt.Errorf("%s: %v", path, err)
	case f.Archiver != "http" || f.Data.URL == "":
		return Archive{}, fmt.Errorf("%s: not an http archive with a _url", path)
	}
	return f.Data, nil
}

// RetryAfter is how long pScheduler waits after a failed attempt when `attempts` were made
// before it (the archiving's attempts count as the plugin is given it: 0 at the first), false
// when the policy is spent: pscheduler.RetryPolicy.retry, whose steps are "n attempts at
// intervals of t" in turn.
func (a Archive) RetryAfter(attempts int) (time.Duration, bool) {
	for _, s := range a.Retry {
		attempts -= s.Attempts
		if attempts < 0 {
			d, err := psconfig.ParseDuration(s.Wait)
			return d, err == nil
		}
	}
	return 0, false
}

// timeout is the archive's timeout (pScheduler's default PT30S).
func (a Archive) timeout() time.Duration {
	if d, err := psconfig.ParseDuration(a.Timeout); err == nil && d > 0 {
		return d
	}
	return 30 * time.Second
}

// Client is the HTTP client one host's archiver keeps (pycurl's handle, reused while alive),
// trusting ca when the archive verifies the bridge's certificate.
func (a Archive) Client(ca []byte) (*http.Client, error) {
	// the archive's verify-ssl, as the plugin sets pycurl's SSL_VERIFYPEER and SSL_VERIFYHOST
	cfg := &tls.Config{InsecureSkipVerify: !a.VerifySSL}
	if a.VerifySSL && len(ca) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			return nil, fmt.Errorf("no certificate in the CA file")
		}
		cfg.RootCAs = pool
	}
	return &http.Client{Timeout: a.timeout(), Transport: &http.Transport{TLSClientConfig: cfg, MaxIdleConnsPerHost: 1}}, nil
}

// Post is one attempt as the plugin makes it: POST (or PUT) of the result with the archive's
// headers; the status, or 0 and the error of a failed connection.
func (a Archive) Post(c *http.Client, body []byte) (int, string) {
	op := http.MethodPost
	if a.Op == "put" {
		op = http.MethodPut
	}
	req, err := http.NewRequest(op, a.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	for k, v := range a.Headers {
		req.Header.Set(k, v)
	}
	if req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return resp.StatusCode, string(msg)
}
