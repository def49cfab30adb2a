package psbridge

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestAHostsTokenPostsAtItsRateAndBurstAndTheSharedOneIsNotBoundPerHost(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	l := newRateLimiter(HostRate{PerSecond: 2, Burst: 3}, "http", func() time.Time { return now })
	for i := range 3 {
		if _, ok := l.take("http-lyon"); !ok {
			t.Fatalf("post %d of the burst refused", i+1)
		}
	}
	wait, ok := l.take("http-lyon")
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("the burst spent: %v %v, want a refusal for 500ms", ok, wait)
	}
	if _, ok := l.take("http-fnal"); !ok {
		t.Fatal("another host's token is bound by lyon's posts")
	}
	for range 100 {
		if _, ok := l.take("http"); !ok {
			t.Fatal("the shared token, every host's, was bound per host")
		}
	}
	now = now.Add(time.Second) // two more at 2 a second
	for i := range 2 {
		if _, ok := l.take("http-lyon"); !ok {
			t.Fatalf("post %d a second later refused", i+1)
		}
	}
	if _, ok := l.take("http-lyon"); ok {
		t.Fatal("a third post within that second was taken")
	}
	if _, ok := newRateLimiter(HostRate{}, "", time.Now).take("http-lyon"); !ok {
		t.Fatal("no rate: unbounded")
	}
}

func TestTheEndpointAnswers429WithRetryAfterToAHostOverItsRate(t *testing.T) {
	dir := t.TempDir()
	writeToken(t, dir, "lyon", "tok-lyon")
	ref := &refusals{}
	accepted := 0
	h := Handler("/p", tokens(t, "shared", dir), Limits{MaxBody: 64, MaxConcurrent: 1, PerHost: HostRate{PerSecond: 0.5, Burst: 2}, Shared: "http"},
		func([]byte, string, string) (Settle, error) {
			accepted++
			return settled(Outcome{Status: Accepted}), nil
		}, ref)
	post := func(tok string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for i := range 2 {
		if w := post("tok-lyon"); w.Code != 200 {
			t.Fatalf("post %d of the burst: %d %s", i+1, w.Code, w.Body)
		}
	}
	w := post("tok-lyon")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "2" || ref.throttled != 1 ||
		!strings.Contains(w.Body.String(), "http-lyon posts faster than 0.5 results a second, 2 at once (pscheduler_bridge.host_rate, host_burst)") {
		t.Fatalf("%d %q %s (throttled %d)", w.Code, w.Header().Get("Retry-After"), w.Body, ref.throttled)
	}
	for i := range 3 {
		if w := post("shared"); w.Code != 200 {
			t.Fatalf("the shared token's post %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	if accepted != 5 {
		t.Fatalf("%d results accepted, want 5", accepted)
	}
}
