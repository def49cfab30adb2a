package psbridge

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tokens is the shared token (none when empty) and the hosts' tokens in dir (none when empty),
// named as the agent names them.
func tokens(t *testing.T, shared, dir string) *Tokens {
	t.Helper()
	var tok []byte
	if shared != "" {
		tok = []byte(shared)
	}
	ts, err := NewTokens(tok, "http", dir, "http-", func(id string) bool { return !strings.ContainsAny(id, "/ A") })
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func writeToken(t testing.TB, dir, name, token string) {
	t.Helper()
	tmp := filepath.Join(dir, "."+name+".new")
	if err := os.WriteFile(tmp, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name+TokenSuffix)); err != nil {
		t.Fatal(err)
	}
}

func TestEachTokenSaysWhichHostPosted(t *testing.T) {
	dir := t.TempDir()
	writeToken(t, dir, "lyon", "tok-lyon")
	writeToken(t, dir, "fnal", "tok-fnal")
	ts := tokens(t, "tok-shared", dir)
	for bearer, want := range map[string]string{"tok-lyon": "http-lyon", "tok-fnal": "http-fnal", "tok-shared": "http", " tok-lyon ": "http-lyon"} {
		if got, ok := ts.Identify(bearer); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", bearer, got, ok, want)
		}
	}
	for _, bearer := range []string{"", "tok-lyo", "tok-lyon1", "TOK-LYON", "http-lyon"} {
		if got, ok := ts.Identify(bearer); ok {
			t.Errorf("%q is %q", bearer, got)
		}
	}
	if ts.Hosts() != 2 {
		t.Errorf("%d hosts", ts.Hosts())
	}
}

// Revoking a host is deleting its file: its next post is refused, the others' are not, and a
// host added is taken, all without a restart.
func TestAHostsFileDeletedRevokesItAloneFromItsNextPost(t *testing.T) {
	dir := t.TempDir()
	writeToken(t, dir, "lyon", "tok-lyon")
	writeToken(t, dir, "fnal", "tok-fnal")
	h := Handler("/p", tokens(t, "", dir), Limits{MaxBody: 64, MaxConcurrent: 1}, func(_ []byte, _, who string) (Settle, error) {
		return settled(Outcome{Status: Accepted, Key: who}), nil
	}, &refusals{})
	post := func(tok string) int {
		r := httptest.NewRequest("POST", "/p", strings.NewReader("{}"))
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if post("tok-lyon") != 200 || post("tok-fnal") != 200 {
		t.Fatal("both hosts refused before any revocation")
	}
	if err := os.Remove(filepath.Join(dir, "lyon"+TokenSuffix)); err != nil {
		t.Fatal(err)
	}
	touch(t, dir) // a folder's mtime may not move within its filesystem's tick
	writeToken(t, dir, "cern", "tok-cern")
	if post("tok-lyon") != 401 {
		t.Error("the revoked host's post was taken")
	}
	if post("tok-fnal") != 200 || post("tok-cern") != 200 {
		t.Error("another host refused after one was revoked, or the added one not taken")
	}
}

func touch(t *testing.T, dir string) {
	t.Helper()
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(dir, later, later); err != nil {
		t.Fatal(err)
	}
}

func TestABadTokensFolderIsAConfigErrorAtStartAndRefusesItsHostsLater(t *testing.T) {
	if _, err := NewTokens(nil, "http", filepath.Join(t.TempDir(), "absent"), "http-", func(string) bool { return true }); err == nil ||
		!strings.Contains(err.Error(), "pscheduler_bridge.host_tokens_dir") {
		t.Errorf("an absent folder: %v", err)
	}
	dir := t.TempDir()
	writeToken(t, dir, "Bad Name", "tok")
	if _, err := NewTokens(nil, "http", dir, "http-", func(id string) bool { return !strings.ContainsAny(id, " B") }); err == nil ||
		!strings.Contains(err.Error(), `"Bad Name" is not a host's name`) {
		t.Errorf("a badly named file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Bad Name"+TokenSuffix), []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTokens(nil, "http", dir, "http-", func(string) bool { return true }); err == nil {
		t.Error("an empty token was taken")
	}

	// a folder that goes bad after the start: its hosts are refused, the shared token is not
	dir = t.TempDir()
	writeToken(t, dir, "lyon", "tok-lyon")
	ts := tokens(t, "tok-shared", dir)
	if err := os.WriteFile(filepath.Join(dir, "fnal"+TokenSuffix), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	touch(t, dir)
	if _, ok := ts.Identify("tok-lyon"); ok {
		t.Error("a host was taken while its folder cannot be read whole")
	}
	if who, ok := ts.Identify("tok-shared"); !ok || who != "http" {
		t.Error("the shared token refused while the folder is bad")
	}
	if ts.Err() == nil || !strings.Contains(ts.Err().Error(), "fnal.token") {
		t.Errorf("Err() = %v", ts.Err())
	}
}

// Two hosts' files holding one token would let either post as the other: the folder is refused,
// naming both files, at the start as a config error and later as a folder gone bad.
func TestOneTokenInTwoHostsFilesIsRefusedNamingBoth(t *testing.T) {
	dir := t.TempDir()
	writeToken(t, dir, "lyon", "tok-same")
	writeToken(t, dir, "fnal", "tok-same")
	_, err := NewTokens(nil, "http", dir, "http-", func(string) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "fnal.token and lyon.token hold the same token") {
		t.Errorf("at the start: %v", err)
	}

	dir = t.TempDir()
	writeToken(t, dir, "lyon", "tok-lyon")
	ts := tokens(t, "", dir)
	writeToken(t, dir, "fnal", "tok-lyon")
	touch(t, dir)
	if who, ok := ts.Identify("tok-lyon"); ok {
		t.Errorf("taken as %q while two hosts hold the token", who)
	}
	if ts.Err() == nil || !strings.Contains(ts.Err().Error(), "hold the same token") {
		t.Errorf("Err() = %v", ts.Err())
	}
}
