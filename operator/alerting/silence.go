package alerting

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Matcher is one label matcher of a silence (Alertmanager's API v2).
type Matcher struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	IsRegex bool   `json:"isRegex"`
	IsEqual bool   `json:"isEqual"`
}

// Silence is a silence as Alertmanager's API v2 takes and gives it.
type Silence struct {
	ID        string    `json:"id,omitempty"`
	Matchers  []Matcher `json:"matchers"`
	StartsAt  time.Time `json:"startsAt"`
	EndsAt    time.Time `json:"endsAt"`
	CreatedBy string    `json:"createdBy"`
	Comment   string    `json:"comment"`
	Status    *struct {
		State string `json:"state"` // active, pending, expired
	} `json:"status,omitempty"`
}

func equal(name, value string) Matcher { return Matcher{Name: name, Value: value, IsEqual: true} }

// SiteSilences silence every Longhaul alert to or from a site: two silences, one on each end
// (Alertmanager's matchers of one silence must all match).
func SiteSilences(site string) [][]Matcher {
	src := equal(LabelSource, SourceValue)
	return [][]Matcher{{src, equal(LabelDstSite, site)}, {src, equal(LabelSrcSite, site)}}
}

// LinkSilence silences every Longhaul alert of one link.
func LinkSilence(src, dst string) []Matcher {
	return []Matcher{equal(LabelSource, SourceValue), equal(LabelSrc, src), equal(LabelDst, dst)}
}

// IncidentSilence silences an incident (its alert and its members, which share its episode id in
// the incident label). The links' own alerts stay inhibited: a silenced member still inhibits.
func IncidentSilence(id string) []Matcher {
	return []Matcher{equal(LabelSource, SourceValue), equal(LabelIncident, id)}
}

// ParseLink reads "SRC:DST"; an IPv6 address is written in brackets: "[2001:db8::1]:dst".
func ParseLink(s string) (src, dst string, err error) {
	bad := fmt.Errorf("link %q: want SRC:DST (an IPv6 address in brackets: [2001:db8::1]:DST)", s)
	src, rest, ok := endpoint(s)
	if !ok || !strings.HasPrefix(rest, ":") {
		return "", "", bad
	}
	dst, rest, ok = endpoint(rest[1:])
	if !ok || rest != "" {
		return "", "", bad
	}
	return src, dst, nil
}

// endpoint reads a host, or an address in brackets, up to the next ':' outside brackets.
func endpoint(s string) (host, rest string, ok bool) {
	if strings.HasPrefix(s, "[") {
		end := strings.Index(s, "]")
		if end < 2 {
			return "", "", false
		}
		return s[1:end], s[end+1:], true
	}
	end := strings.Index(s, ":")
	if end < 0 {
		end = len(s)
	}
	return s[:end], s[end:], end > 0
}

// CreateSilence adds a silence from now for d and returns its id.
func (c *Client) CreateSilence(ctx context.Context, m []Matcher, d time.Duration, author, comment string) (string, error) {
	now := time.Now().UTC()
	s := Silence{Matchers: m, StartsAt: now, EndsAt: now.Add(d), CreatedBy: author, Comment: comment}
	var out struct {
		SilenceID string `json:"silenceID"`
	}
	err := c.do(ctx, http.MethodPost, "/api/v2/silences", nil, s, &out)
	return out.SilenceID, err
}

// Silences lists Alertmanager's silences (expired ones too).
func (c *Client) Silences(ctx context.Context) ([]Silence, error) {
	var out []Silence
	err := c.do(ctx, http.MethodGet, "/api/v2/silences", nil, nil, &out)
	return out, err
}

// ExpireSilence ends a silence now.
func (c *Client) ExpireSilence(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/api/v2/silence/"+url.PathEscape(id), nil, nil, nil)
}

// MatchersString writes matchers the way amtool does: name="value", comma-separated.
func MatchersString(ms []Matcher) string {
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		op := "="
		switch {
		case m.IsRegex && !m.IsEqual:
			op = "!~"
		case m.IsRegex:
			op = "=~"
		case !m.IsEqual:
			op = "!="
		}
		parts = append(parts, fmt.Sprintf("%s%s%q", m.Name, op, m.Value))
	}
	return strings.Join(parts, ",")
}
