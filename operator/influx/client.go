// Package influx is the operator's one InfluxDB client: InfluxQL over the v1 /query API, which
// InfluxDB 1.8, 2.x (v1 compatibility) and 3.x all serve. Query reads results; Exec runs the
// administrative statements of `longhaul setup` (databases, retention policies, users). It
// authenticates with HTTP basic auth as a user whose password comes from a file or the
// environment (auth.go), over HTTPS when the URL says so.
package influx

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client queries one database as User (basic auth; none when User is empty). Make one with New
// or FromSettings, which read the password and CA files.
type Client struct {
	URL  string
	DB   string
	User string
	HTTP *http.Client // nil: a default client with a 30 s timeout

	password     string // never printed: see String
	passwordFile string // named in refusals
}

// String describes the client for logs: never the password.
func (c *Client) String() string {
	if c.User == "" {
		return c.URL + " (anonymous)"
	}
	return c.URL + " as " + c.User
}

// Series is one InfluxQL result series; times are epoch milliseconds (column "time").
type Series struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

type response struct {
	Results []struct {
		Series []Series `json:"series"`
		Error  string   `json:"error"`
	} `json:"results"`
	Error string `json:"error"`
}

// Query runs one InfluxQL statement on the client's database and returns its series (none when
// it matched nothing).
func (c *Client) Query(ctx context.Context, q string) ([]Series, error) {
	r, err := c.post(ctx, q, url.Values{"db": {c.DB}, "epoch": {"ms"}})
	if err != nil {
		return nil, err
	}
	if len(r.Results) == 0 {
		return nil, nil
	}
	if r.Results[0].Error != "" {
		return nil, fmt.Errorf("influxdb: %s (query: %s)", r.Results[0].Error, q)
	}
	return r.Results[0].Series, nil
}

// Exec runs a statement that returns no series (CREATE DATABASE, CREATE/ALTER RETENTION
// POLICY): an error in any of its results is returned.
func (c *Client) Exec(ctx context.Context, stmt string) error {
	r, err := c.post(ctx, stmt, url.Values{})
	if err != nil {
		return err
	}
	for _, res := range r.Results {
		if res.Error != "" {
			return fmt.Errorf("influxdb: %s", res.Error)
		}
	}
	return nil
}

// ExecSecret is Exec for a statement that carries secret (CREATE USER, SET PASSWORD): the
// secret is replaced in any error, whatever InfluxDB echoes back.
func (c *Client) ExecSecret(ctx context.Context, stmt, secret string) error {
	return redact(c.Exec(ctx, stmt), secret)
}

// CheckWrite asks whether the client's user may write to its database: an empty write is
// authorized like a real one and stores nothing. nil, or the refusal (RefusedError) or outage.
func (c *Client) CheckWrite(ctx context.Context) error {
	u := strings.TrimRight(c.URL, "/") + "/write?" + url.Values{"db": {c.DB}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(""))
	if err != nil {
		return err
	}
	status, body, err := c.do(req)
	if err != nil {
		return err
	}
	if status != http.StatusNoContent {
		var r response
		_ = json.Unmarshal(body, &r)
		if r.Error == "" {
			r.Error = fmt.Sprintf("%.200s", body)
		}
		return fmt.Errorf("influxdb %s: write to %s: HTTP %d: %s", c.URL, c.DB, status, r.Error)
	}
	return nil
}

// Ping asks whether InfluxDB answers (/ping: 204), as the client's user.
func (c *Client) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(c.URL, "/")+"/ping", nil)
	if err != nil {
		return err
	}
	status, body, err := c.do(req)
	if err != nil {
		return err
	}
	if status != http.StatusNoContent && status != http.StatusOK {
		return fmt.Errorf("influxdb %s: ping: HTTP %d: %.200s", c.URL, status, body)
	}
	return nil
}

// post sends one statement to /query (POST, so statements that write are allowed) and decodes
// the answer; an HTTP error or an error in the answer's top level is returned.
func (c *Client) post(ctx context.Context, q string, params url.Values) (*response, error) {
	u := strings.TrimRight(c.URL, "/") + "/query"
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(url.Values{"q": {q}}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, body, err := c.do(req)
	if err != nil {
		return nil, err
	}
	var r response
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("influxdb %s: HTTP %d: %.200s", c.URL, status, body)
	}
	if r.Error != "" {
		return nil, fmt.Errorf("influxdb: %s", r.Error)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("influxdb: HTTP %d", status)
	}
	return &r, nil
}

// do sends req with the client's credentials and reads the answer. A 401 or 403 is returned as
// a RefusedError with InfluxDB's message; a connection error names the server.
func (c *Client) do(req *http.Request) (int, []byte, error) {
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	if c.User != "" {
		req.SetBasicAuth(c.User, c.password)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("influxdb %s: %w", c.URL, tlsHint(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, nil, fmt.Errorf("influxdb %s: %w", c.URL, err)
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		var r response
		msg := strings.TrimSpace(string(body))
		if json.Unmarshal(body, &r) == nil && r.Error != "" {
			msg = r.Error
		}
		return 0, nil, &RefusedError{URL: c.URL, User: c.User, PasswordFile: c.passwordFile,
			Status: resp.StatusCode, Message: fmt.Sprintf("%.300s", msg)}
	}
	return resp.StatusCode, body, nil
}

// Col returns the index of a column, or -1.
func (s Series) Col(name string) int {
	for i, c := range s.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// Float reads a cell as a number; ok is false for null and non-numbers.
func Float(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// Str reads a cell as text ("" for null).
func Str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return fmt.Sprint(v)
}

// Text reads a row's column as text, or, when the series has no such column, the series' tag of
// that name (a GROUP BY tag is not a column).
func (s Series) Text(row []any, col string) string {
	if i := s.Col(col); i >= 0 {
		return Str(row[i])
	}
	return s.Tags[col]
}

// Millis reads the time column of a row.
func (s Series) Millis(row []any) int64 {
	i := s.Col("time")
	if i < 0 {
		return 0
	}
	f, _ := Float(row[i])
	return int64(f)
}
