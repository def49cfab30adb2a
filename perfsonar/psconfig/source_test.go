package psconfig

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// server serves one document with an ETag and Last-Modified, answers conditional requests
// with 304, and can be told to fail.
type server struct {
	mu      sync.Mutex
	body    string
	etag    string
	status  int // when not 0, the answer instead of the document
	got     []string
	lastMod string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
	if s.status != 0 {
		http.Error(w, "backend down", s.status)
		return
	}
	w.Header().Set("ETag", s.etag)
	w.Header().Set("Last-Modified", s.lastMod)
	if r.Header.Get("If-None-Match") == s.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write([]byte(s.body))
}

func (s *server) set(body, etag string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.etag, s.status = body, etag, status
	s.lastMod = "Mon, 23 Nov 2026 10:00:00 GMT"
}

func (s *server) lastRequest() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[len(s.got)-1]
}

const (
	docAB = `{"addresses":{"a":{"address":"a.example"},"b":{"address":"b.example"}},
	  "groups":{"g":{"type":"mesh","addresses":[{"name":"a"},{"name":"b"}]}},
	  "tests":{"bw":{"type":"throughput","spec":{"source":"{% address[0] %}","dest":"{% address[1] %}"}}},
	  "schedules":{"s":{"repeat":"PT6H","slip":"PT3H","sliprand":true}},
	  "tasks":{"t":{"group":"g","test":"bw","schedule":"s"}}}`
)

func planOf(tp *Template) string {
	var b strings.Builder
	for _, e := range tp.Plan([]string{"a"}) {
		b.WriteString(e.Task + " " + e.Src + "→" + e.Dst + ";")
	}
	return b.String()
}

func TestRefreshUsesConditionalRequestsAndKeepsTheLastGoodPlan(t *testing.T) {
	srv := &server{}
	srv.set(docAB, `"v1"`, 0)
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	now := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	src := NewSource(ts.URL+"/pub/auto/a.example", Options{Client: ts.Client(), Now: func() time.Time { return now }})
	ctx := context.Background()

	// 200: the first plan.
	tp, changed, err := src.Refresh(ctx)
	if err != nil || !changed || planOf(tp) != "t a.example→b.example;" {
		t.Fatalf("first fetch: %v %v %q", changed, err, planOf(tp))
	}
	if r := srv.lastRequest(); r != "|" {
		t.Errorf("the first request is not conditional: %q", r)
	}

	// 304: unchanged, the validators sent back.
	now = now.Add(time.Hour)
	tp2, changed, err := src.Refresh(ctx)
	if err != nil || changed || tp2 != tp {
		t.Fatalf("304: changed %v err %v", changed, err)
	}
	if r := srv.lastRequest(); r != `"v1"|Mon, 23 Nov 2026 10:00:00 GMT` {
		t.Errorf("conditional request sent %q", r)
	}
	if st := src.Status(); st.State != StateOK || st.NotModified != 1 || st.Fetches != 2 || !st.LastSuccess.Equal(now) {
		t.Errorf("after 304: %+v", st)
	}

	// 200 with a changed plan: b→a dropped by an exclude... from a's side, a→b excluded.
	changedDoc := strings.Replace(docAB, `"addresses":[{"name":"a"},{"name":"b"}]`,
		`"addresses":[{"name":"a"},{"name":"b"}],"excludes":[{"local-address":{"name":"a"},"target-addresses":[{"name":"b"}]}]`, 1)
	srv.set(changedDoc, `"v2"`, 0)
	now = now.Add(time.Hour)
	tp3, changed, err := src.Refresh(ctx)
	if err != nil || !changed || planOf(tp3) != "" {
		t.Fatalf("changed document: changed %v err %v plan %q", changed, err, planOf(tp3))
	}
	changedAt := now

	// 500: the error is reported, the last good plan kept.
	srv.set(changedDoc, `"v2"`, http.StatusInternalServerError)
	now = now.Add(time.Hour)
	tp4, changed, err := src.Refresh(ctx)
	if err == nil || changed || tp4 != tp3 || !strings.Contains(err.Error(), "HTTP 500 Internal Server Error: backend down") ||
		!strings.Contains(err.Error(), "keeping the plan of") {
		t.Fatalf("500: changed %v err %v", changed, err)
	}
	st := src.Status()
	if st.State != StateStale || !strings.Contains(st.LastError, "HTTP 500") || !st.LastErrorAt.Equal(now) ||
		!st.LastSuccess.Equal(changedAt) || st.Failures != 1 {
		t.Errorf("after 500: %+v", st)
	}

	// Invalid JSON with a new ETag: refused, the last good plan kept; its validators are not
	// taken, so the next request fetches the document whole again.
	srv.set(`{"addresses":`, `"v3"`, 0)
	now = now.Add(time.Hour)
	tp5, changed, err := src.Refresh(ctx)
	if err == nil || changed || tp5 != tp3 || !strings.Contains(err.Error(), "invalid pSConfig template") {
		t.Fatalf("invalid JSON: changed %v err %v", changed, err)
	}
	if st := src.Status(); st.State != StateStale || !strings.Contains(st.LastError, "invalid pSConfig template") || st.Failures != 2 {
		t.Errorf("after invalid JSON: %+v", st)
	}
	// A valid document that breaks the template's rules is refused the same way.
	srv.set(`{"addresses":{},"groups":{},"tests":{},"tasks":{"t":{"group":"nope","test":"bw"}}}`, `"v4"`, 0)
	if _, _, err := src.Refresh(ctx); err == nil || !strings.Contains(err.Error(), `tasks.t.group: unknown group "nope"`) {
		t.Fatalf("dangling reference: %v", err)
	}
	if r := srv.lastRequest(); r != `"v2"|Mon, 23 Nov 2026 10:00:00 GMT` {
		t.Errorf("after refused documents the validators must be the good one's, sent %q", r)
	}

	// Mended: back to ok with the new plan.
	srv.set(docAB, `"v5"`, 0)
	tp6, changed, err := src.Refresh(ctx)
	if err != nil || !changed || planOf(tp6) != "t a.example→b.example;" || src.Status().State != StateOK || src.Status().LastError != "" {
		t.Fatalf("mended: changed %v err %v %+v", changed, err, src.Status())
	}
}

func TestAFirstFetchThatFailsHasNoPlan(t *testing.T) {
	ts := httptest.NewTLSServer(http.NotFoundHandler())
	defer ts.Close()
	src := NewSource(ts.URL+"/pub/auto/unknown.example", Options{Client: ts.Client()})
	tp, changed, err := src.Refresh(context.Background())
	if tp != nil || changed || err == nil || !strings.Contains(err.Error(), "HTTP 404") || src.Status().State != StateNone {
		t.Errorf("tp %v changed %v err %v %+v", tp, changed, err, src.Status())
	}
}

func TestAnUntrustedServerIsRefused(t *testing.T) {
	ts := httptest.NewUnstartedServer(http.NotFoundHandler())
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the client refuses
	ts.StartTLS()
	defer ts.Close()
	_, _, err := NewSource(ts.URL, Options{}).Refresh(context.Background()) // the system's roots
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("err %v", err)
	}
}

func TestAFileSourceIsReadAgainAndKeptWhenBroken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mesh.json")
	os.WriteFile(path, []byte(docAB), 0o644)
	src := NewSource(path, Options{})
	ctx := context.Background()
	if _, changed, err := src.Refresh(ctx); !changed || err != nil {
		t.Fatalf("%v %v", changed, err)
	}
	if _, changed, err := src.Refresh(ctx); changed || err != nil || src.Status().NotModified != 1 {
		t.Fatalf("unchanged file: %v %v", changed, err)
	}
	os.WriteFile(path, []byte(`{`), 0o644)
	if tp, _, err := src.Refresh(ctx); err == nil || tp == nil || !strings.Contains(err.Error(), path+": invalid pSConfig template: line 1") {
		t.Fatalf("broken file: %v", err)
	}
	os.Remove(path)
	if tp, _, err := src.Refresh(ctx); err == nil || tp == nil || src.Status().State != StateStale {
		t.Fatalf("missing file: %v", err)
	}
}

func TestARedirectFromHTTPSToPlainHTTPIsRefused(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(docAB))
	}))
	defer plain.Close()
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/same" { // a redirect that stays on https is followed
			http.Redirect(w, r, "/doc", http.StatusFound)
			return
		}
		if r.URL.Path == "/doc" {
			_, _ = w.Write([]byte(docAB))
			return
		}
		http.Redirect(w, r, plain.URL+"/pub/auto/a.example", http.StatusMovedPermanently)
	}))
	defer tls.Close()
	src := NewSource(tls.URL+"/pub/auto/a.example", Options{Client: tls.Client()})
	_, _, err := src.Refresh(context.Background())
	if err == nil || !strings.Contains(err.Error(), "refused: plain http after https") {
		t.Fatalf("err %v", err)
	}
	if _, changed, err := NewSource(tls.URL+"/same", Options{Client: tls.Client()}).Refresh(context.Background()); err != nil || !changed {
		t.Fatalf("an https redirect: changed %v err %v", changed, err)
	}
}
