package watchdog

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
)

// ProbeID is the event schema probe_id of every event the watchdog raises.
const ProbeID = "watchdog"

// Event is an event message as the watchdog writes it: the contract's Go form (ingest/sample),
// of kind pipeline_degraded or pipeline_recovered, with evidence.component naming the part.
type Event = sample.Event

// componentOf is the component event e is about (evidence.component).
func componentOf(e Event) string { return e.EvidenceString("component") }

// EpisodeID names an episode of a watchdog instance, component and subject by when it turned
// bad: the same for the alert and its recovery.
func EpisodeID(instance, component, subject string, since time.Time) string {
	if instance == "" {
		return fmt.Sprintf("watchdog:%s:%s:%d", component, subject, since.UnixMilli())
	}
	return fmt.Sprintf("watchdog:%s:%s:%s:%d", instance, component, subject, since.UnixMilli())
}

// EvidenceInstance is the evidence key naming the watchdog instance that raised an event (the job
// it watches): a watchdog takes up only its own episodes after a restart, never another's.
const EvidenceInstance = "watchdog"

// degraded is the alert of a finding bad since since.
func degraded(f Finding, since, now time.Time, episode string) Event {
	sev := f.Severity
	if sev == "" {
		sev = SeverityWarning
	}
	ev := evidence(f)
	ev["since_ms"] = since.UnixMilli()
	return newEvent(contract.KindPipelineDegraded, f.Subject, now, sev, f.Message, episode, ev)
}

// recovered closes the episode opened at since, with the finding that says it is healthy again.
func recovered(f Finding, since, now time.Time, episode string) Event {
	ev := evidence(f)
	ev["degraded_since_ms"] = since.UnixMilli()
	ev["degraded_s"] = seconds(now.Sub(since))
	msg := fmt.Sprintf("%s recovered after %s", describe(f.Component, f.Subject), now.Sub(since).Round(time.Second))
	if f.Message != "" {
		msg += ": " + f.Message
	}
	return newEvent(contract.KindPipelineRecovered, f.Subject, now, SeverityInfo, msg, episode, ev)
}

func newEvent(kind, subject string, now time.Time, severity, message, episode string, ev map[string]any) Event {
	if subject == "" {
		subject = AnySubject
	}
	message = cut(message, 2000)
	return Event{Schema: contract.SchemaEvents, Version: contract.VersionEvents, Kind: kind, Src: subject, Dst: AnySubject, ProbeID: ProbeID,
		TS: now.UnixMilli(), Severity: severity, Message: message, EpisodeID: episode, Evidence: ev}
}

// describe names a component and subject in a message: "agent perfsonar.example.org", "flink_job".
func describe(component, subject string) string {
	if subject == "" || subject == AnySubject {
		return component
	}
	return component + " " + subject
}

var evidenceKey = regexp.MustCompile(`[^a-z0-9_]+`)

// evidence is the finding's evidence as event schema wants it: flat, keys of lower-case letters,
// digits and '_' starting with a letter, values strings, numbers or booleans; plus the component.
func evidence(f Finding) map[string]any {
	out := map[string]any{}
	for k, v := range f.Evidence {
		k = strings.Trim(evidenceKey.ReplaceAllString(strings.ToLower(k), "_"), "_")
		if k == "" || k[0] < 'a' || k[0] > 'z' {
			k = "x_" + k
		}
		switch x := v.(type) {
		case string:
			out[k] = cut(x, 500)
		case nil, bool, float64, float32, int, int32, int64, uint32, uint64:
			out[k] = x
		case time.Duration:
			out[k] = seconds(x)
		case time.Time:
			out[k] = ms(x)
		case error:
			out[k] = cut(x.Error(), 500)
		default:
			out[k] = cut(fmt.Sprint(x), 500)
		}
	}
	out["component"] = f.Component
	return out
}

// cut shortens s to at most n bytes (an error's text can be long: Flink's, Kafka's).
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= 4
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + " …"
}
