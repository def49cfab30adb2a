package alerting

import (
	"sort"
	"strings"
	"time"
)

// Alert is an alert as Alertmanager's API v2 takes it (postableAlert).
type Alert struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations,omitempty"`
	StartsAt     time.Time         `json:"startsAt,omitempty"`
	EndsAt       time.Time         `json:"endsAt,omitempty"`
	GeneratorURL string            `json:"generatorURL,omitempty"`
}

// Held is an alert as Alertmanager's API v2 gives it back (gettableAlert).
type Held struct {
	Alert
	Fingerprint string `json:"fingerprint"`
	Status      struct {
		State       string   `json:"state"` // active, suppressed, unprocessed
		SilencedBy  []string `json:"silencedBy"`
		InhibitedBy []string `json:"inhibitedBy"`
	} `json:"status"`
}

// Identity is the alert's label set as one string: Alertmanager tells alerts apart by their
// labels alone, so two alerts with the same Identity are the same alert.
func (a Alert) Identity() string { return identity(a.Labels) }

func identity(labels map[string]string) string {
	names := make([]string, 0, len(labels))
	for n := range labels {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte('=')
		b.WriteString(labels[n])
		b.WriteByte(0)
	}
	return b.String()
}

// resolved is a copy of a that Alertmanager takes as ended at t.
func (a Alert) resolved(t time.Time) Alert {
	if !t.After(a.StartsAt) { // Alertmanager refuses an end that is not after the start
		t = a.StartsAt.Add(time.Millisecond)
	}
	a.EndsAt = t.UTC()
	return a
}
