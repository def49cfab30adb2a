package psbridge

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type refusals struct{ unauthorized, tooLarge, busy, queueFull, throttled int }

func (r *refusals) Unauthorized() { r.unauthorized++ }
func (r *refusals) TooLarge()     { r.tooLarge++ }
func (r *refusals) Busy(full bool) {
	r.busy++
	if full {
		r.queueFull++
	}
}
func (r *refusals) Throttled() { r.throttled++ }

func TestTheEndpointWantsTheTokenAndKeepsOrRefusesEachResult(t *testing.T) {
	var got []string
	fail := false
	accept := func(body []byte, input, identity string) (Settle, error) {
		if fail {
			return nil, errors.New("disk full")
		}
		got = append(got, input+":"+identity+":"+string(body))
		return settled(Outcome{Status: Accepted, Key: "pscheduler-1", Samples: 3}), nil
	}
	ref := &refusals{}
	h := Handler("/pscheduler/results", tokens(t, "s3cret", ""), Limits{MaxBody: 64, MaxConcurrent: 1}, accept, ref)
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
	h := Handler("/p", tokens(t, "", ""), Limits{MaxBody: 64, MaxConcurrent: 1}, func([]byte, string, string) (Settle, error) { t.Fatal("accepted"); return nil, nil }, &refusals{})
	r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
	r.Header.Set("Authorization", "Bearer ")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("%d", w.Code)
	}
}

// While max_concurrent results are being converted, another post waits for a slot (pScheduler's
// archiver ignores Retry-After and would send a refused result again only after its retry
// policy's wait): the bridge never holds more than that many results and their samples, however
// many hosts post at once, and a post that waited gets in as soon as one is done.
func TestAPostBeyondMaxConcurrentWaitsForASlot(t *testing.T) {
	inside, release := make(chan struct{}), make(chan struct{})
	accept := func([]byte, string, string) (Settle, error) {
		inside <- struct{}{}
		<-release
		return settled(Outcome{Status: Accepted}), nil
	}
	ref := &refusals{}
	h := Handler("/p", tokens(t, "t", ""), Limits{MaxBody: 64, MaxConcurrent: 2}, accept, ref)
	done := make(chan int, 3)
	for range 2 {
		go func() { done <- postTo(h).Code }()
		<-inside
	}
	go func() { done <- postTo(h).Code }()
	select {
	case <-inside:
		t.Fatal("a third post converted while two did")
	case code := <-done:
		t.Fatalf("a third post answered %d while two converted", code)
	case <-time.After(100 * time.Millisecond):
	}
	release <- struct{}{} // the first one ends: the third gets its slot
	<-inside
	close(release)
	for range 3 {
		if code := <-done; code != 200 {
			t.Errorf("a post: %d", code)
		}
	}
	if ref.busy != 0 {
		t.Errorf("busy refusals %d, want 0", ref.busy)
	}
}

// A post that waited its time, or finds the queue full, is told to come back (429, Retry-After),
// naming the setting.
func TestAPostIsToldToComeBackWhenTheWaitRunsOutOrTheQueueIsFull(t *testing.T) {
	inside, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	accept := func([]byte, string, string) (Settle, error) {
		inside <- struct{}{}
		<-release
		return settled(Outcome{Status: Accepted}), nil
	}
	for name, c := range map[string]struct {
		g    *gate
		full int
	}{
		"wait ran out": {&gate{slots: make(chan struct{}, 1), maxWaiting: 8, wait: 50 * time.Millisecond}, 0},
		"queue full":   {&gate{slots: make(chan struct{}, 1), maxWaiting: 0, wait: time.Hour}, 1},
	} {
		g := c.g
		ref := &refusals{}
		h := handler("/p", tokens(t, "t", ""), 64, g, newRateLimiter(HostRate{}, "", time.Now), accept, ref)
		go postTo(h)
		<-inside
		w := postTo(h)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" ||
			!strings.Contains(w.Body.String(), "pscheduler_bridge.max_concurrent") || ref.busy != 1 || ref.queueFull != c.full {
			t.Errorf("%s: %d %q %s (busy %d, queue full %d)", name, w.Code, w.Header().Get("Retry-After"), w.Body, ref.busy, ref.queueFull)
		}
		release <- struct{}{}
	}
}

// A post gives its slot back once its result is written, before the fsync that makes it durable:
// while it waits for the disk, the next post converts (and shares that fsync), so a slow disk does
// not hold the slots that bound the bridge's memory. It is answered only once settled.
func TestAPostSettlesOutsideItsSlot(t *testing.T) {
	syncing, synced := make(chan struct{}), make(chan struct{})
	var took []string
	accept := func(body []byte, _, _ string) (Settle, error) {
		took = append(took, string(body)) // one slot: never two at once
		if len(took) > 1 {
			return settled(Outcome{Status: Accepted}), nil
		}
		return func() (Outcome, error) {
			syncing <- struct{}{}
			<-synced
			return Outcome{Status: Accepted, Key: "first"}, nil
		}, nil
	}
	ref := &refusals{}
	h := handler("/p", tokens(t, "t", ""), 64, &gate{slots: make(chan struct{}, 1), maxWaiting: 8, wait: 2 * time.Second},
		newRateLimiter(HostRate{}, "", time.Now), accept, ref)
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- postTo(h) }()
	<-syncing
	if w := postTo(h); w.Code != 200 {
		t.Fatalf("a post while the first settles: %d %s", w.Code, w.Body)
	}
	select {
	case w := <-first:
		t.Fatalf("the first post answered %d before its result was durable", w.Code)
	default:
	}
	close(synced)
	if w := <-first; w.Code != 200 || !strings.Contains(w.Body.String(), `"first"`) {
		t.Errorf("the first post: %d %s", w.Code, w.Body)
	}
	if len(took) != 2 || ref.busy != 0 {
		t.Errorf("took %q, busy %d", took, ref.busy)
	}
}

// settled is a Settle that is already durable.
func settled(o Outcome) Settle { return func() (Outcome, error) { return o, nil } }

func postTo(h http.Handler) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
	r.Header.Set("Authorization", "Bearer t")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
