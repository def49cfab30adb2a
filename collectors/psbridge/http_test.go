package psbridge

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type refusals struct{ unauthorized, tooLarge, busy int }

func (r *refusals) Unauthorized() { r.unauthorized++ }
func (r *refusals) TooLarge()     { r.tooLarge++ }
func (r *refusals) Busy()         { r.busy++ }

func TestTheEndpointWantsTheTokenAndKeepsOrRefusesEachResult(t *testing.T) {
	var got []string
	fail := false
	accept := func(body []byte, input, identity string) (Outcome, error) {
		if fail {
			return Outcome{}, errors.New("disk full")
		}
		got = append(got, input+":"+identity+":"+string(body))
		return Outcome{Status: Accepted, Key: "pscheduler-1", Samples: 3}, nil
	}
	ref := &refusals{}
	h := Handler("/pscheduler/results", tokens(t, "s3cret", ""), 64, 1, accept, ref)
	do := func(method, path, auth, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := do("POST", "/pscheduler/results", "Bearer s3cret", `{"id":1}`); w.Code != 200 {
		t.Fatalf("post: %d %s", w.Code, w.Body)
	} else {
		var o Outcome
		if err := json.Unmarshal(w.Body.Bytes(), &o); err != nil || o.Status != Accepted || o.Samples != 3 {
			t.Errorf("outcome %s", w.Body)
		}
	}
	if w := do("PUT", "/pscheduler/results", "Bearer s3cret", `{"id":2}`); w.Code != 200 {
		t.Errorf("put: %d", w.Code)
	}
	for _, auth := range []string{"", "Bearer wrong", "Basic s3cret", "Bearer s3cre", "Bearer s3cret1"} {
		if w := do("POST", "/pscheduler/results", auth, `{}`); w.Code != 401 || w.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("auth %q: %d", auth, w.Code)
		}
	}
	if w := do("POST", "/pscheduler/results", "Bearer s3cret", strings.Repeat("x", 65)); w.Code != 413 {
		t.Errorf("too large: %d", w.Code)
	}
	if w := do("GET", "/pscheduler/results", "Bearer s3cret", ""); w.Code != 405 {
		t.Errorf("GET: %d", w.Code)
	}
	if w := do("POST", "/elsewhere", "Bearer s3cret", "{}"); w.Code != 404 {
		t.Errorf("another path: %d", w.Code)
	}
	fail = true
	if w := do("POST", "/pscheduler/results", "Bearer s3cret", `{"id":3}`); w.Code != 503 || !strings.Contains(w.Body.String(), "disk full") {
		t.Errorf("spool failure: %d %s", w.Code, w.Body)
	}
	if len(got) != 2 || got[0] != `http:http:{"id":1}` || ref.unauthorized != 5 || ref.tooLarge != 1 {
		t.Errorf("accepted %q, refusals %+v", got, *ref)
	}
}

func TestNoTokenConfiguredLetsNothingIn(t *testing.T) {
	h := Handler("/p", tokens(t, "", ""), 64, 1, func([]byte, string, string) (Outcome, error) { t.Fatal("accepted"); return Outcome{}, nil }, &refusals{})
	r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
	r.Header.Set("Authorization", "Bearer ")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("%d", w.Code)
	}
}

// While max_concurrent results are being converted, another post is refused with 429 and a
// Retry-After (pScheduler's archiver retries it): the bridge never holds more than that many
// results and their samples, however many hosts post at once. Once one is done, the next gets in.
func TestPostsBeyondMaxConcurrentAreToldToComeBackLater(t *testing.T) {
	inside, release := make(chan struct{}), make(chan struct{})
	accept := func([]byte, string, string) (Outcome, error) {
		inside <- struct{}{}
		<-release
		return Outcome{Status: Accepted}, nil
	}
	ref := &refusals{}
	h := Handler("/p", tokens(t, "t", ""), 64, 2, accept, ref)
	post := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
		r.Header.Set("Authorization", "Bearer t")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	done := make(chan int, 2)
	for range 2 {
		go func() { done <- post().Code }()
		<-inside
	}
	if w := post(); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" ||
		!strings.Contains(w.Body.String(), "pscheduler_bridge.max_concurrent") {
		t.Fatalf("a third post while two convert: %d %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	release <- struct{}{}
	if code := <-done; code != 200 {
		t.Fatalf("the first post: %d", code)
	}
	go func() { done <- post().Code }()
	<-inside
	close(release)
	for range 2 {
		if code := <-done; code != 200 {
			t.Errorf("a post after a slot freed: %d", code)
		}
	}
	if ref.busy != 1 {
		t.Errorf("busy refusals %d, want 1", ref.busy)
	}
}
