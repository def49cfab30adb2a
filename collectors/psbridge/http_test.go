package psbridge

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type refusals struct{ unauthorized, tooLarge int }

func (r *refusals) Unauthorized() { r.unauthorized++ }
func (r *refusals) TooLarge()     { r.tooLarge++ }

func TestTheEndpointWantsTheTokenAndKeepsOrRefusesEachResult(t *testing.T) {
	var got []string
	fail := false
	accept := func(body []byte, input string) (Outcome, error) {
		if fail {
			return Outcome{}, errors.New("disk full")
		}
		got = append(got, input+":"+string(body))
		return Outcome{Status: Accepted, Key: "pscheduler-1", Samples: 3}, nil
	}
	ref := &refusals{}
	h := Handler("/pscheduler/results", []byte("s3cret"), 64, accept, ref)
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
	if len(got) != 2 || got[0] != `http:{"id":1}` || ref.unauthorized != 5 || ref.tooLarge != 1 {
		t.Errorf("accepted %q, refusals %+v", got, *ref)
	}
}

func TestNoTokenConfiguredLetsNothingIn(t *testing.T) {
	h := Handler("/p", nil, 64, func([]byte, string) (Outcome, error) { t.Fatal("accepted"); return Outcome{}, nil }, &refusals{})
	r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
	r.Header.Set("Authorization", "Bearer ")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("%d", w.Code)
	}
}
