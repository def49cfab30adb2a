package psconfig

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"longhaul/internal/settings"
)

// MaxDocument bounds a template: WLCG's largest are a few MB.
const MaxDocument = 32 << 20

// Options of a Source.
type Options struct {
	// CAFile verifies the HTTPS server (PEM); empty: the system's roots. Read at each fetch, so
	// a fixed file needs no restart.
	CAFile  string
	Timeout time.Duration // one fetch; default 30s
	// Client replaces the HTTPS client (tests); CAFile is then not used.
	Client    *http.Client
	UserAgent string
	Now       func() time.Time
}

// Source is a template from a file or an HTTP(S) URL, fetched again on Refresh with a
// conditional request (If-None-Match / If-Modified-Since), that keeps the last good template
// when a fetch fails or a document is invalid.
type Source struct {
	loc string
	opt Options

	mu            sync.Mutex
	good          *Template
	goodRaw       []byte // the document as fetched (its validators are etag, lastMod)
	goodDoc       []byte // with its includes merged: what the plan was made from
	etag, lastMod string
	st            Status
}

// Status is how the source is, for the agent's health.
type Status struct {
	Source string `json:"source"`
	// State: "ok" (the last fetch gave a good template, or said it had not changed);
	// "stale" (the last fetch failed or the document was invalid: the last good plan is kept);
	// "none" (no good template yet: nothing planned from it).
	State       string     `json:"state"`
	LastError   string     `json:"last_error,omitempty"`
	LastErrorAt *time.Time `json:"last_error_at,omitempty"`
	LastFetch   *time.Time `json:"last_fetch,omitempty"`   // the last attempt
	LastSuccess *time.Time `json:"last_success,omitempty"` // the last good answer (200 or 304)
	LastChange  *time.Time `json:"last_change,omitempty"`  // when the template last changed
	Fetches     uint64     `json:"fetches"`
	NotModified uint64     `json:"not_modified"` // 304 answers (and files unchanged)
	Failures    uint64     `json:"failures"`
}

// States of a Source.
const (
	StateOK    = "ok"
	StateStale = "stale"
	StateNone  = "none"
)

// NewSource reads loc: an https:// (or http://) URL, a file:// URL or a path.
func NewSource(loc string, opt Options) *Source {
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.UserAgent == "" {
		opt.UserAgent = "longhaul-probe"
	}
	return &Source{loc: loc, opt: opt, st: Status{Source: loc, State: StateNone}}
}

// IsURL says whether loc is fetched over HTTP(S) rather than read from a file.
func IsURL(loc string) bool {
	return strings.HasPrefix(loc, "https://") || strings.HasPrefix(loc, "http://")
}

// Status is a copy of the source's state.
func (s *Source) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// Template is the last good template, nil before the first.
func (s *Source) Template() *Template {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.good
}

// Refresh fetches the template once. It returns the last good template and whether this
// fetch changed it; err says why the fetch failed or the document was refused, in which case
// the template returned is the one kept from before (nil if none).
func (s *Source) Refresh(ctx context.Context) (*Template, bool, error) {
	now := s.opt.Now()
	raw, notModified, v, err := s.fetch(ctx)
	if err == nil && notModified {
		s.mu.Lock()
		raw = s.goodRaw
		s.mu.Unlock()
	}
	// Includes are fetched at every refresh, even when the document has not changed: an
	// include may have.
	var t *Template
	var merged []byte
	if err == nil {
		t, merged, err = s.load(ctx, raw)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Fetches++
	s.st.LastFetch = &now
	if err != nil {
		s.st.Failures++
		s.st.LastError, s.st.LastErrorAt = err.Error(), &now
		s.st.State = StateStale
		if s.good == nil {
			s.st.State = StateNone
		}
		if s.good != nil {
			return s.good, false, fmt.Errorf("%w (keeping the plan of %s)", err, s.st.LastSuccess.UTC().Format(time.RFC3339))
		}
		return nil, false, err
	}
	s.st.State, s.st.LastError, s.st.LastErrorAt, s.st.LastSuccess = StateOK, "", nil, &now
	if s.good != nil && bytes.Equal(merged, s.goodDoc) {
		s.st.NotModified++
		return s.good, false, nil
	}
	s.good, s.goodDoc, s.st.LastChange = t, merged, &now
	if !notModified {
		// The validators are kept only with a good document: a bad one is fetched whole
		// again, not answered 304.
		s.goodRaw, s.etag, s.lastMod = raw, v.etag, v.lastMod
	}
	return t, true, nil
}

// fetch reads the document; notModified when the server says it has not changed since the
// last good one.
func (s *Source) fetch(ctx context.Context) (raw []byte, notModified bool, v validators, err error) {
	var cond validators
	s.mu.Lock()
	if s.good != nil { // validators only for the document we hold
		cond = validators{s.etag, s.lastMod}
	}
	s.mu.Unlock()
	return s.get(ctx, s.loc, cond, MaxDocument)
}

// get reads the document at loc (a file or an HTTP(S) URL) of at most limit bytes, with a
// conditional request when cond has validators.
func (s *Source) get(ctx context.Context, loc string, cond validators, limit int) (raw []byte, notModified bool, v validators, err error) {
	if !IsURL(loc) {
		path := strings.TrimPrefix(loc, "file://")
		raw, err := readFile(path, limit)
		return raw, false, v, err
	}
	client, err := s.client()
	if err != nil {
		return nil, false, v, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return nil, false, v, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", s.opt.UserAgent)
	if cond.etag != "" {
		req.Header.Set("If-None-Match", cond.etag)
	}
	if cond.lastMod != "" {
		req.Header.Set("If-Modified-Since", cond.lastMod)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, false, v, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return nil, true, v, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, false, v, fmt.Errorf("%s: %w", loc, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, false, v, fmt.Errorf("%s: HTTP %s%s", loc, resp.Status, excerpt(body))
	}
	if len(body) > limit {
		return nil, false, v, fmt.Errorf("%s: larger than %d bytes", loc, limit)
	}
	return body, false, validators{resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")}, nil
}

// readFile reads a file of at most limit bytes.
func readFile(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err == nil && len(raw) > limit {
		err = fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return raw, err
}

// validators are what a conditional request sends back.
type validators struct{ etag, lastMod string }

func excerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if s == "" {
		return ""
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return ": " + strings.Join(strings.Fields(s), " ")
}

// client is the HTTPS client: the test's, or one trusting CAFile (read now); either way it
// follows no redirect from https to plain http (noDowngrade).
func (s *Source) client() (*http.Client, error) {
	if s.opt.Client != nil {
		c := *s.opt.Client
		c.CheckRedirect = noDowngrade
		return &c, nil
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if s.opt.CAFile != "" {
		pool, err := settings.CAPool("psconfig.ca_file", "", s.opt.CAFile)
		if err != nil {
			return nil, err
		}
		tr = settings.Trusting(pool)
	}
	return &http.Client{Transport: tr, CheckRedirect: noDowngrade}, nil
}

// noDowngrade refuses a redirect from https to plain http (a template fetched over TLS must not
// come from anywhere an attacker on the path can answer) and, like Go's default, a tenth redirect.
func noDowngrade(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("stopped after %d redirects", len(via))
	}
	if via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("redirect from %s to %s refused: plain http after https", via[0].URL.Redacted(), req.URL.Redacted())
	}
	return nil
}
