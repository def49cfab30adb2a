package alerting

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

	"longhaul/internal/settings"
)

// Client speaks Alertmanager's API v2 as one basic-auth user.
type Client struct {
	URL      string // base URL, e.g. https://127.0.0.1:9193
	User     string
	password string
	HTTP     *http.Client
}

// Auth is how a client authenticates: the settings' values, from flags or the environment.
type Auth struct {
	User         string // "" for none (refused by an Alertmanager with basic_auth_users)
	PasswordFile string
	CAFile       string // PEM of the CA that signed Alertmanager's certificate (https URLs)
}

// AuthFromEnv is the authentication the environment gives (LONGHAUL_ALERTMANAGER_USER,
// _PASSWORD_FILE, _CA; on a native stack host the operator user by default).
func AuthFromEnv() Auth {
	return Auth{User: settings.AlertmanagerUser.Value(), PasswordFile: settings.AlertmanagerPasswordFile.Value(),
		CAFile: settings.AlertmanagerCA.Value()}
}

// NewClient is a client of the Alertmanager at base. It reads the password and CA files; every
// error names the file or the setting, never a secret.
func NewClient(base string, a Auth) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("alertmanager URL %q: want http(s)://host:port (%s)", base, settings.Alertmanager.Env)
	}
	c := &Client{URL: strings.TrimRight(base, "/"), User: a.User, HTTP: &http.Client{Timeout: 15 * time.Second}}
	if a.User != "" {
		if err := settings.CredentialTransport("alertmanager URL", base); err != nil {
			return nil, err
		}
		pw, err := settings.Secret(a.PasswordFile)
		if err != nil {
			return nil, fmt.Errorf("alertmanager user %s: %w (%s)", a.User, err, settings.AlertmanagerPasswordFile.Env)
		}
		c.password = pw
	}
	if a.CAFile != "" && u.Scheme == "https" {
		pool, err := settings.CAPool("alertmanager CA", settings.AlertmanagerCA.Env, a.CAFile)
		if err != nil {
			return nil, err
		}
		c.HTTP.Transport = settings.Trusting(pool)
	}
	return c, nil
}

// FromSettings is the client the environment describes for this URL (the --alertmanager flag).
func FromSettings(base string) (*Client, error) { return NewClient(base, AuthFromEnv()) }

// RefusedError is Alertmanager refusing the credential: reported, never retried silently.
type RefusedError struct {
	User, URL string
	Status    int
}

func (e *RefusedError) Error() string {
	who := "no user"
	if e.User != "" {
		who = "user " + e.User
	}
	return fmt.Sprintf("alertmanager %s refused %s (HTTP %d): check %s and the password in %s",
		e.URL, who, e.Status, settings.AlertmanagerUser.Env, settings.AlertmanagerPasswordFile.Env)
}

// do sends one request with a JSON body (nil for none) and decodes a JSON answer into out (nil:
// ignored). Answers other than 2xx are errors that quote Alertmanager's (bounded) message.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	u := c.URL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.User != "" {
		req.SetBasicAuth(c.User, c.password)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("alertmanager %s: %w", c.URL, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return &RefusedError{User: c.User, URL: c.URL, Status: resp.StatusCode}
	case resp.StatusCode/100 != 2:
		msg := strings.TrimSpace(string(data))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return fmt.Errorf("alertmanager %s %s: HTTP %d: %s", method, path, resp.StatusCode, msg)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("alertmanager %s %s: unreadable answer: %w", method, path, err)
	}
	return nil
}

// Ready is nil when Alertmanager answers its readiness endpoint and accepts the credential.
func (c *Client) Ready(ctx context.Context) error {
	return c.do(ctx, http.MethodGet, "/api/v2/status", nil, nil, nil)
}

// Post sends alerts (firing ones with endsAt in the future, resolved ones with endsAt now).
func (c *Client) Post(ctx context.Context, alerts []Alert) error {
	if len(alerts) == 0 {
		return nil
	}
	return c.do(ctx, http.MethodPost, "/api/v2/alerts", nil, alerts, nil)
}

// Active is every alert Alertmanager holds as active, silenced or inhibited whose labels match
// all matchers (Alertmanager's filter syntax, e.g. `source="longhaul"`).
func (c *Client) Active(ctx context.Context, matchers ...string) ([]Held, error) {
	q := url.Values{"active": {"true"}, "silenced": {"true"}, "inhibited": {"true"}, "unprocessed": {"true"}}
	for _, m := range matchers {
		q.Add("filter", m)
	}
	var out []Held
	err := c.do(ctx, http.MethodGet, "/api/v2/alerts", q, nil, &out)
	return out, err
}
