package alerting

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
)

// State is what the events say is open: every alert without its recovery yet, and every notice
// (info event) not yet expired. It is rebuilt from the events topic on start, so it is never
// persisted; the bridge posts what Apply returns and re-posts Open periodically.
type State struct {
	Sites    Sites
	Teams    Contacts // the team of each incident's location (contacts file); none when empty
	Describe Describer
	// NoticeFor is how long an info event (route change, stall, diagnosis) stays a firing
	// notice in Alertmanager.
	NoticeFor time.Duration
	// Hold is how far ahead of now an open alert's end is put each time it is posted: for hold,
	// Alertmanager keeps it firing if the bridge stops (a dead bridge must resolve nothing).
	Hold time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	open map[string]*entry // by key: the episode id, else "kind|src|dst"
	idx  *stateIndex       // open's keys by link, destination and kind (state_index.go)
	// pipelineShown is the pipeline's state (pipelineState) the open link alerts were rendered
	// with.
	pipelineShown string
	diagnosis     map[string]string // link → message of its latest diagnosis
}

type entry struct {
	alert   Alert
	event   Event
	since   time.Time
	expires time.Time // notices only
	// Incidents only: the member alert of each link the incident explains (see
	// AlertIncidentMember), and when each link joined the incident ("src|dst" → time).
	members []Alert
	joined  map[string]time.Time
	// opened is the labels of an incident's alert before this update (keepIncidentIdentity).
	opened map[string]string
}

// Change is what one event changes in Alertmanager: alerts to post as firing and alerts (with
// their previous labels) to post as resolved.
type Change struct {
	Firing   []Alert
	Resolved []Alert
}

// NewState is an empty state.
func NewState(sites Sites, d Describer, noticeFor, hold time.Duration) *State {
	return &State{Sites: sites, Describe: d, NoticeFor: noticeFor, Hold: hold, open: map[string]*entry{}, diagnosis: map[string]string{}}
}

func (s *State) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// posted is an entry's alert as it is posted now: an alert ends at now+Hold, a notice at its
// expiry.
func (s *State) posted(ent *entry) Alert {
	a := ent.alert
	if ent.expires.IsZero() {
		a.EndsAt = s.now().Add(s.Hold).UTC()
	} else {
		a.EndsAt = ent.expires
	}
	return a
}

func entryKey(e Event, alertKind string) string {
	if e.EpisodeID != "" {
		return e.EpisodeID
	}
	return alertKind + "|" + e.Src + "|" + e.Dst
}

// Apply takes one event in topic order and returns the change it makes (nothing for a kind the
// bridge does not know, e.g. of a newer contract).
func (s *State) Apply(e Event) Change {
	switch {
	case contract.IsAlert(e.Kind), contract.IsUpdate(e.Kind):
		return s.raise(e)
	case contract.IsRecovery(e.Kind):
		return s.close(e, contract.Closes[e.Kind])
	default:
		return s.notice(e)
	}
}

func (s *State) raise(e Event) Change {
	var ch Change
	key := entryKey(e, e.Kind)
	since := e.Time()
	if ms, ok := e.EvidenceNumber("since_ms"); ok && ms > 0 {
		since = time.UnixMilli(int64(ms)).UTC()
	}
	old := s.open[key]
	if old != nil {
		since = old.since // the same episode raised again (escalated, re-evaluated)
	}
	ent := &entry{event: e, since: since}
	if e.Incident() {
		ent.joined = joinedLinks(old, e, since)
		if old != nil {
			ent.opened = old.alert.Labels
		}
	}
	s.put(key, ent)
	s.render(ent)
	if old != nil && ent.alert.Identity() != old.alert.Identity() {
		ch.Resolved = append(ch.Resolved, old.alert.resolved(e.Time()))
	}
	ch.Firing = append(ch.Firing, s.posted(ent))
	if old != nil { // links that left the incident: their alerts are no longer explained by it
		ch.Resolved = append(ch.Resolved, departed(old.members, ent.members, e.Time())...)
	}
	ch.Firing = append(ch.Firing, s.postedMembers(ent)...)
	ch.Firing = append(ch.Firing, s.touched(e)...)
	return ch
}

// joinedLinks is when each of incident e's links joined it: as before for a link it already
// explained, since (the incident's start) for the links it opened with, e's time for a new one.
func joinedLinks(old *entry, e Event, since time.Time) map[string]time.Time {
	joined := map[string]time.Time{}
	for _, l := range e.Links {
		k := sample.LinkKey(l.Src, l.Dst)
		switch t, ok := old.joinedAt(k); {
		case ok:
			joined[k] = t
		case old == nil:
			joined[k] = since
		default:
			joined[k] = e.Time()
		}
	}
	return joined
}

func (ent *entry) joinedAt(link string) (time.Time, bool) {
	if ent == nil {
		return time.Time{}, false
	}
	t, ok := ent.joined[link]
	return t, ok
}

// departed is each of the old member alerts not among now's, resolved at t.
func departed(old, now []Alert, t time.Time) []Alert {
	kept := map[string]bool{}
	for _, a := range now {
		kept[a.Identity()] = true
	}
	var out []Alert
	for _, a := range old {
		if !kept[a.Identity()] {
			out = append(out, a.resolved(t))
		}
	}
	return out
}

// postedMembers is an incident's member alerts as posted now: like every open alert, they end
// a hold ahead of now.
func (s *State) postedMembers(ent *entry) []Alert {
	out := make([]Alert, 0, len(ent.members))
	for _, a := range ent.members {
		a.EndsAt = s.now().Add(s.Hold).UTC()
		out = append(out, a)
	}
	return out
}

func (s *State) close(e Event, alertKind string) Change {
	var ch Change
	var keys []string
	if _, ok := s.open[e.EpisodeID]; ok && e.EpisodeID != "" {
		keys = []string{e.EpisodeID}
	} else { // a recovery without the alert's episode: every such alert of the link
		for _, k := range sorted(s.index().byLink[e.Key()]) {
			if ent := s.open[k]; ent.event.Kind == alertKind && ent.event.Src == e.Src && ent.event.Dst == e.Dst {
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		ch.Resolved = append(ch.Resolved, s.open[k].alert.resolved(e.Time()))
		for _, m := range s.open[k].members {
			ch.Resolved = append(ch.Resolved, m.resolved(e.Time()))
		}
		s.remove(k)
	}
	ch.Resolved = append(ch.Resolved, s.staleConditions(e, alertKind)...)
	if len(keys) > 0 {
		ch.Firing = append(ch.Firing, s.touched(e)...)
	}
	return ch
}

func (s *State) notice(e Event) Change {
	if e.Kind == contract.KindDiagnosis && e.Src != Wildcard && e.Dst != Wildcard {
		s.diagnosis[e.Key()] = e.Message
	}
	key, since := fmt.Sprintf("notice|%s|%s|%s|%d", e.Kind, e.Src, e.Dst, e.TS), e.Time()
	var old *entry
	if k, ok := conditionKey(e); ok { // one notice per condition (condition.go)
		key = k
		if o := s.open[k]; o != nil && o.expires.After(e.Time()) {
			old, since = o, o.since
		}
	}
	ent := &entry{event: e, since: since, expires: e.Time().Add(s.NoticeFor)}
	s.put(key, ent)
	s.render(ent)
	var ch Change
	if old != nil && old.alert.Identity() != ent.alert.Identity() { // e.g. its severity changed
		ch.Resolved = append(ch.Resolved, old.alert.resolved(e.Time()))
	}
	ch.Firing = append(ch.Firing, s.posted(ent))
	if e.Kind == contract.KindDiagnosis {
		ch.Firing = append(ch.Firing, s.touched(e)...)
	}
	return ch
}

// touched re-renders the open alerts whose annotations depend on e: the alerts of e's link (a
// new diagnosis), the site-wide alert of e's destination (its list of links), and every link
// alert when the pipeline's state changes. An agent's own pipeline_degraded (its src, not "*")
// or the same state raised again changes no link alert's annotation: at a fleet's scale a
// silent fleet's agents raised thousands, each re-rendering thousands of alerts.
func (s *State) touched(e Event) []Alert {
	var out []Alert
	pipeline := e.Kind == contract.KindPipelineDegraded || e.Kind == contract.KindPipelineRecovered
	if pipeline {
		now := s.pipelineState()
		pipeline, s.pipelineShown = now != s.pipelineShown, now
	}
	var keys []string
	if pipeline {
		keys = s.sortedKeys()
	} else { // only e's link and its destination's site-wide alerts
		ix := s.index()
		keys = sorted(ix.byLink[e.Key()], ix.byLink[sample.LinkKey(Wildcard, e.Dst)])
	}
	for _, k := range keys {
		ent := s.open[k]
		ev := ent.event
		if !ent.expires.IsZero() || (ev.Src == e.Src && ev.Dst == e.Dst && ev.Kind == e.Kind) {
			continue
		}
		if (ev.Src == e.Src && ev.Dst == e.Dst) || (ev.Src == Wildcard && ev.Dst == e.Dst) ||
			(pipeline && ev.Kind != contract.KindPipelineDegraded) {
			s.render(ent)
			out = append(out, s.posted(ent))
		}
	}
	return out
}

// render (re)writes an entry's alert from its event and what else is open.
func (s *State) render(ent *entry) {
	e := ent.event
	a := Alert{Labels: labels(e, s.Sites, s.Teams), Annotations: s.Describe.annotations(e, ent.since), StartsAt: ent.since}
	if ent.opened != nil {
		a.Labels = keepIncidentIdentity(ent.opened, a.Labels)
	}
	a.GeneratorURL = a.Annotations[AnnDashboard]
	if d, ok := s.diagnosis[e.Key()]; ok && contract.IsAlert(e.Kind) {
		a.Annotations[AnnDiagnosis] = d
	}
	if e.Src == Wildcard && e.Dst != Wildcard && !e.Incident() { // an incident lists its own links
		if links := s.linksTo(e.Dst); links != "" {
			a.Annotations[AnnLinks] = links
		}
	}
	if p := s.pipelineState(); p != "" && e.Kind != contract.KindPipelineDegraded && (contract.IsAlert(e.Kind) || contract.IsUpdate(e.Kind)) {
		a.Annotations[AnnPipeline] = p
	}
	ent.alert = a
	if e.Incident() {
		ent.members = s.members(ent)
	}
}

// members are the member alerts of an incident entry, one per link, in the event's order.
func (s *State) members(ent *entry) []Alert {
	e := ent.event
	summary := fmt.Sprintf("explained by the incident at %s (%s): its alerts are inhibited while it is open", e.Location, e.IncidentID())
	out := make([]Alert, 0, len(e.Links))
	seen := map[string]bool{}
	for _, l := range e.Links {
		k := sample.LinkKey(l.Src, l.Dst)
		if seen[k] {
			continue
		}
		seen[k] = true
		start := ent.joined[k]
		if start.IsZero() {
			start = ent.since
		}
		out = append(out, Alert{Labels: memberLabels(e, l), Annotations: map[string]string{AnnSummary: summary}, StartsAt: start})
	}
	return out
}

// linksTo lists the per-link alerts open towards dst, "src (kind)" each.
func (s *State) linksTo(dst string) string {
	var parts []string
	for _, k := range sorted(s.index().byDst[dst]) {
		ev := s.open[k].event
		if ev.Dst == dst && ev.Src != Wildcard && contract.IsAlert(ev.Kind) {
			parts = append(parts, fmt.Sprintf("%s → %s (%s)", ev.Src, ev.Dst, ev.Kind))
		}
	}
	return strings.Join(parts, "; ")
}

// pipelineState says, while the pipeline itself is degraded as a whole, that link alerts are of
// unknown state.
func (s *State) pipelineState() string {
	var parts []string
	for _, k := range sorted(s.index().pipelines) {
		ev := s.open[k].event
		if isPipelineAlert(ev) {
			parts = append(parts, fmt.Sprintf("%s degraded since %s", ev.EvidenceString("component"),
				s.open[k].since.Format(time.RFC3339)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "unknown: the monitoring pipeline is degraded (" + strings.Join(parts, "; ") + "); this link's state may be stale"
}

func (s *State) sortedKeys() []string {
	keys := make([]string, 0, len(s.open))
	for k := range s.open {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Open is every open alert and live notice as posted now (see posted). Expired notices are
// dropped.
func (s *State) Open() []Alert {
	now := s.now()
	var out []Alert
	for _, k := range s.sortedKeys() {
		ent := s.open[k]
		if !ent.expires.IsZero() && !ent.expires.After(now) {
			s.remove(k)
			continue
		}
		out = append(out, s.posted(ent))
		out = append(out, s.postedMembers(ent)...)
	}
	return out
}

// Len is how many alerts and notices are open (an incident counts once, without its members).
func (s *State) Len() (alerts, notices int) {
	for _, ent := range s.open {
		if ent.expires.IsZero() {
			alerts++
		} else {
			notices++
		}
	}
	return alerts, notices
}

// Has reports whether an alert with these labels is open (a notice counts while it lives).
func (s *State) Has(labels map[string]string) bool { return s.Identities()[identity(labels)] }

// Identities is the identity of every open alert, notice and incident member: what Has asks
// of one, for many at once.
func (s *State) Identities() map[string]bool {
	ids := make(map[string]bool, len(s.open))
	for _, ent := range s.open {
		ids[ent.alert.Identity()] = true
		for _, m := range ent.members {
			ids[m.Identity()] = true
		}
	}
	return ids
}
