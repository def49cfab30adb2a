package setup

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"longhaul/operator/influx"
)

// fakeInflux answers /query like InfluxDB 1.8 for an admin: CREATE USER of an existing user with
// another password fails with "user already exists"; it records every statement and answers
// /write with 204 for writer.
type fakeInflux struct {
	mu       sync.Mutex
	existing map[string]bool
	stmts    []string
	writers  []string
}

func (f *fakeInflux) serve(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		user, _, _ := r.BasicAuth()
		if r.URL.Path == "/write" {
			f.writers = append(f.writers, user+" "+r.URL.Query().Get("db"))
			w.WriteHeader(http.StatusNoContent)
			return
		}
		_ = r.ParseForm()
		q := r.PostForm.Get("q")
		f.stmts = append(f.stmts, q)
		if strings.HasPrefix(q, `CREATE USER "writer"`) && f.existing["writer"] {
			_, _ = w.Write([]byte(`{"results":[{"statement_id":0,"error":"user already exists"}]}`))
			return
		}
		_, _ = w.Write([]byte(`{"results":[{"statement_id":0}]}`))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

func TestInfluxUsersAreCreatedOrTheirPasswordSetThenGrantedAndWriterChecked(t *testing.T) {
	dir := t.TempDir()
	for user, pw := range map[string]string{"writer": "w'1\\x", "reader": "r2"} {
		if err := os.WriteFile(filepath.Join(dir, "influx-"+user+".password"), []byte(pw), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f := &fakeInflux{existing: map[string]bool{"writer": true}}
	c, err := influx.New(f.serve(t), "longhaul", influx.Auth{User: "admin", Password: "a"})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := EnsureInfluxUsers(context.Background(), c, "longhaul", dir, &log); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`CREATE USER "writer" WITH PASSWORD 'w\'1\\x'`,
		`SET PASSWORD FOR "writer" = 'w\'1\\x'`,
		`GRANT WRITE ON "longhaul" TO "writer"`,
		`CREATE USER "reader" WITH PASSWORD 'r2'`,
		`GRANT READ ON "longhaul" TO "reader"`,
	}
	if strings.Join(f.stmts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("statements:\n%s\nwant:\n%s", strings.Join(f.stmts, "\n"), strings.Join(want, "\n"))
	}
	if len(f.writers) != 1 || f.writers[0] != "writer longhaul" {
		t.Fatalf("write check: %v", f.writers)
	}
	if got := log.String(); got != "influxdb users on longhaul ready: writer (WRITE), reader (READ)\n" || strings.Contains(got, "r2") {
		t.Fatalf("log: %q", got)
	}
}

func TestAMissingPasswordFileNamesTheUserAndTheFile(t *testing.T) {
	f := &fakeInflux{}
	c, err := influx.New(f.serve(t), "longhaul", influx.Auth{User: "admin", Password: "a"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	err = EnsureInfluxUsers(context.Background(), c, "longhaul", dir, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "influxdb user writer") || !strings.Contains(err.Error(), filepath.Join(dir, "influx-writer.password")) {
		t.Fatalf("err = %v", err)
	}
	if len(f.stmts) != 0 {
		t.Fatalf("statements sent without a password: %v", f.stmts)
	}
}
