package influx

import (
	"context"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const password = "pa'ss\\word-Z9"

// secretFile writes content to a 0600 file of the test's temporary folder and returns its path.
func secretFile(t *testing.T, content string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "influx.password")
	if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// refusing answers every request like InfluxDB 1.8 with auth-enabled: 401 without credentials or
// with a wrong password, 403 for a user without the privilege (reader writing), 204 for a write by
// writer. It records the Authorization header of each request.
func refusing(t *testing.T, seen *[]string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*seen = append(*seen, r.Header.Get("Authorization"))
		user, pw, ok := r.BasicAuth()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case !ok:
			w.WriteHeader(401)
			_, _ = w.Write([]byte(`{"error":"unable to parse authentication credentials"}`))
		case pw != password:
			w.WriteHeader(401)
			_, _ = w.Write([]byte(`{"error":"authorization failed"}`))
		case user == "reader" && r.URL.Path == "/write":
			w.WriteHeader(403)
			_, _ = w.Write([]byte(`{"error":"\"reader\" user is not authorized to write to database \"longhaul\""}`))
		case user == "writer" && r.URL.Path == "/query":
			w.WriteHeader(403)
			_, _ = w.Write([]byte(`{"error":"error authorizing query: writer not authorized to execute statement 'SELECT * FROM x', requires READ on longhaul"}`))
		case r.URL.Path == "/write":
			w.WriteHeader(204)
		default:
			_, _ = w.Write([]byte(`{"results":[{"statement_id":0}]}`))
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestAnonymousRefusalSaysAuthenticationIsOnAndWhatToSet(t *testing.T) {
	var seen []string
	c, err := New(refusing(t, &seen), "longhaul", Auth{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Query(context.Background(), "SHOW MEASUREMENTS")
	var r *RefusedError
	if !errors.As(err, &r) || r.Status != 401 || r.User != "" || !Refused(err) {
		t.Fatalf("err = %#v", err)
	}
	for _, want := range []string{"refused anonymous access", "HTTP 401", "unable to parse authentication credentials",
		"LONGHAUL_INFLUX_USER", "LONGHAUL_INFLUX_PASSWORD_FILE"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if seen[0] != "" {
		t.Errorf("anonymous request sent Authorization %q", seen[0])
	}
}

func TestWrongPasswordNamesTheUserAndTheFileNeverThePassword(t *testing.T) {
	var seen []string
	file := secretFile(t, "not-"+password)
	c, err := New(refusing(t, &seen), "longhaul", Auth{User: "reader", PasswordFile: file})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Query(context.Background(), "SHOW MEASUREMENTS")
	if !Refused(err) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{`user "reader"`, "HTTP 401", "authorization failed", file} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), password) || strings.Contains(c.String(), password) {
		t.Fatalf("the password is printed: %q / %q", err, c.String())
	}
}

func TestMissingPrivilegeIsA403WithInfluxDBsMessage(t *testing.T) {
	var seen []string
	url := refusing(t, &seen)
	reader, err := New(url, "longhaul", Auth{User: "reader", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	err = reader.CheckWrite(context.Background())
	var r *RefusedError
	if !errors.As(err, &r) || r.Status != 403 || r.User != "reader" ||
		!strings.Contains(err.Error(), `"reader" user is not authorized to write to database "longhaul"`) {
		t.Fatalf("reader writing: %v", err)
	}
	_, err = reader.WithUser("writer", password).Query(context.Background(), "SELECT * FROM x")
	if !errors.As(err, &r) || r.Status != 403 || r.User != "writer" || !strings.Contains(err.Error(), "requires READ on longhaul") {
		t.Fatalf("writer reading: %v", err)
	}
	if err := reader.WithUser("writer", password).CheckWrite(context.Background()); err != nil {
		t.Fatalf("writer writing: %v", err)
	}
}

func TestExecSecretNeverReturnsTheSecret(t *testing.T) {
	var req http.Request
	var q string
	// a server that echoes the statement in its error, as a parse error would
	url := serve(t, 200, `{"results":[{"statement_id":0,"error":"error parsing query: found pa'ss\\word-Z9"}]}`, &req, &q)
	c, err := New(url, "longhaul", Auth{User: "admin", Password: "x"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.ExecSecret(context.Background(), "SET PASSWORD FOR writer = "+password, password)
	if err == nil || strings.Contains(err.Error(), password) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(q, password) {
		t.Fatalf("the statement did not reach the server: %q", q)
	}
}

func TestNewNamesTheMissingSetting(t *testing.T) {
	for name, a := range map[string]Auth{
		"no password":      {User: "reader"},
		"empty file":       {User: "reader", PasswordFile: secretFile(t, "\n")},
		"missing file":     {User: "reader", PasswordFile: "/nonexistent/influx.password"},
		"missing CA":       {CAFile: "/nonexistent/ca.crt"},
		"CA without a PEM": {CAFile: secretFile(t, "not a certificate")},
	} {
		_, err := New("https://127.0.0.1:1", "longhaul", a)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		want := map[string]string{"no password": "LONGHAUL_INFLUX_PASSWORD_FILE", "empty file": "is empty",
			"missing file": "/nonexistent/influx.password", "missing CA": "LONGHAUL_INFLUX_CA", "CA without a PEM": "no PEM"}[name]
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %q lacks %q", name, err, want)
		}
	}
}

func TestHTTPSTrustsTheConfiguredCA(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "reader" || p != password {
			w.WriteHeader(401)
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"statement_id":0}]}`))
	}))
	defer ts.Close()
	ca := secretFile(t, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})))

	untrusted, err := New(ts.URL, "longhaul", Auth{User: "reader", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	_, err = untrusted.Query(context.Background(), "SHOW MEASUREMENTS")
	if err == nil || !strings.Contains(err.Error(), "LONGHAUL_INFLUX_CA") || Refused(err) {
		t.Fatalf("without the CA: %v", err)
	}
	trusted, err := New(ts.URL, "longhaul", Auth{User: "reader", Password: password, CAFile: ca})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trusted.Query(context.Background(), "SHOW MEASUREMENTS"); err != nil {
		t.Fatalf("with the CA: %v", err)
	}
}
