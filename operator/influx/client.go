// Package influx is the operator's one InfluxDB client: InfluxQL over the v1 /query API, which
// InfluxDB 1.8, 2.x (v1 compatibility) and 3.x all serve. Query reads results; Exec runs the
// administrative statements of `longhaul setup` (databases, retention policies).
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

// Client queries one database. Token is sent as "Authorization: Token …" (ignored by 1.x
// without auth).
type Client struct {
	URL   string
	DB    string
	Token string
	HTTP  *http.Client
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

// post sends one statement to /query (POST, so statements that write are allowed) and decodes
// the answer; an HTTP error or an error in the answer's top level is returned.
func (c *Client) post(ctx context.Context, q string, params url.Values) (*response, error) {
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	u := strings.TrimRight(c.URL, "/") + "/query"
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(url.Values{"q": {q}}.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.Token != "" {
		req.Header.Set("Authorization", "Token "+c.Token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("influxdb %s: %w", c.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	var r response
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("influxdb %s: HTTP %d: %.200s", c.URL, resp.StatusCode, body)
	}
	if r.Error != "" {
		return nil, fmt.Errorf("influxdb: %s", r.Error)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("influxdb: HTTP %d", resp.StatusCode)
	}
	return &r, nil
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

// Millis reads the time column of a row.
func (s Series) Millis(row []any) int64 {
	i := s.Col("time")
	if i < 0 {
		return 0
	}
	f, _ := Float(row[i])
	return int64(f)
}
