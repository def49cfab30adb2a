package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// FetchHealth reads a running agent's GET /health at addr (host:port, or an http URL).
func FetchHealth(ctx context.Context, addr string) (Health, []byte, error) {
	url := addr
	if !strings.Contains(url, "://") {
		url = "http://" + addr
	}
	url = strings.TrimSuffix(url, "/") + "/health"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Health{}, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Health{}, nil, fmt.Errorf("no agent answers on %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return Health{}, nil, fmt.Errorf("%s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Health{}, body, fmt.Errorf("%s: %s", url, resp.Status)
	}
	var h Health
	if err := json.Unmarshal(body, &h); err != nil {
		return Health{}, body, fmt.Errorf("%s: not an agent's health: %w", url, err)
	}
	return h, body, nil
}

// WriteStatus writes h for a person: one line on the whole, then Kafka, the spool, the samples
// and the probes. A refusal says why and what to do; nothing secret is in h to print.
func WriteStatus(w io.Writer, h Health, now time.Time) {
	fmt.Fprintf(w, "longhaul-probe %s (version %s), up %s: %s\n", h.Src, h.Version, ago(time.Duration(h.UptimeS*float64(time.Second))), h.Status)
	k := h.Kafka
	who := k.Security
	if k.User != "" {
		who = "user " + k.User + " over " + k.Security
	}
	switch k.State {
	case KafkaRefused:
		since := ""
		if k.RefusedSince != nil {
			since = fmt.Sprintf(" since %s (%s)", k.RefusedSince.Local().Format("2006-01-02 15:04:05"), ago(now.Sub(*k.RefusedSince)))
		}
		fmt.Fprintf(w, "kafka:   REFUSED%s: %s\n", since, k.Reason)
		next := ""
		if k.NextCheck != nil {
			next = fmt.Sprintf("; re-checked in %s", ago(k.NextCheck.Sub(now)))
		}
		fmt.Fprintf(w, "         %s%s, re-reading the credential files: fix them (or the broker's ACLs), no restart needed\n", who, next)
	case KafkaUnreachable:
		fmt.Fprintf(w, "kafka:   unreachable (%s), retried; samples wait in the spool\n", who)
		if k.LastError != "" {
			fmt.Fprintf(w, "         last error: %s\n", k.LastError)
		}
	default:
		last := "no acknowledgement yet"
		if k.LastAck != nil {
			last = "last acknowledgement " + ago(now.Sub(*k.LastAck)) + " ago"
		}
		fmt.Fprintf(w, "kafka:   connected (%s), %s\n", who, last)
	}
	s := h.Spool
	fmt.Fprintf(w, "spool:   %d samples (%s) waiting for Kafka, %d dropped (spool full), %d corrupt skipped\n",
		s.DepthSamples, size(s.DepthBytes), s.DroppedTotal, s.CorruptSkipped)
	fmt.Fprintf(w, "samples: %d spooled, %d acknowledged by Kafka, %d dead-lettered, %d lost\n",
		h.Samples.Spooled, k.Acked, h.Samples.DeadLettered, h.Samples.Lost)
	fmt.Fprintf(w, "probes:  %d, %d failing\n", len(h.Probes), h.failingProbes())
	if p := h.PSConfig; p != nil {
		writePSConfig(w, p, now)
	}
	if r := h.ProbeRequests; r != nil && r.Refused != "" {
		fmt.Fprintf(w, "requests: REFUSED: %s\n", r.Refused)
	}
}

// writePSConfig says where the plan comes from and how it is; a failure says what was kept.
func writePSConfig(w io.Writer, p *PSConfigHealth, now time.Time) {
	plan := fmt.Sprintf("%d pairs planned, %d run, %d unsupported", p.Planned, p.Running, p.Unsupported)
	if p.ByPScheduler > 0 {
		plan = fmt.Sprintf("%d pairs planned, %d run, %d measured by pScheduler (its archiver sends them), %d unsupported",
			p.Planned, p.Running, p.ByPScheduler, p.Unsupported)
	}
	switch p.State {
	case "ok":
		fetched := ""
		if p.LastSuccess != nil {
			fetched = ", fetched " + ago(now.Sub(*p.LastSuccess)) + " ago"
		}
		fmt.Fprintf(w, "psconfig: ok (%s%s): %s\n", p.Source, fetched, plan)
	case "stale":
		fmt.Fprintf(w, "psconfig: FAILING (%s): %s\n", p.Source, p.LastError)
		kept := ""
		if p.LastSuccess != nil {
			kept = " of " + p.LastSuccess.Local().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(w, "          the last good plan%s runs: %s\n", kept, plan)
	default:
		fmt.Fprintf(w, "psconfig: NO PLAN (%s): %s\n", p.Source, p.LastError)
		fmt.Fprintf(w, "          only the config's own probes run; tried again every minute\n")
	}
	for _, warning := range p.Warnings {
		fmt.Fprintf(w, "          not applied: %s\n", warning)
	}
	for _, u := range p.Pairs {
		fmt.Fprintf(w, "          unsupported: %s %s %s→%s: %s\n", u.Task, u.Test, u.Src, u.Dst, u.Reason)
	}
}

func ago(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Hour:
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}

func size(b int64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
