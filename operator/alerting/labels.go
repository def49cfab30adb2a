package alerting

import (
	"strconv"

	"longhaul/ingest/contract"
)

// The labels the bridge sets, named once: alerting/alertmanager.yml routes, groups and inhibits
// on them, and `longhaul silence` matches them (tests check the config against this list).
const (
	LabelAlertname = "alertname" // the alert kind of the contract; for a recovery the kind it closes, for an update the kind it updates
	LabelRole      = "role"      // "alert" (open until its recovery) or "info" (a notice)
	LabelSrc       = "src"
	LabelDst       = "dst"
	LabelSrcSite   = "src_site"
	LabelDstSite   = "dst_site"
	LabelSite      = "site" // the site the alert is about: the destination's, else the source's
	LabelSeverity  = "severity"
	LabelProbe     = "probe"     // the probe whose samples it is about, else the detector
	LabelProtocol  = "protocol"  // tcp, udp, icmp, path (when the event says)
	LabelComponent = "component" // pipeline events: what failed (evidence.component)
	LabelScope     = "scope"     // pipeline events: "pipeline" (src *) or "agent" (one host)
	LabelCause     = "cause"     // diagnosis notices
	LabelNotice    = "notice"    // info events but a diagnosis: their time, so each notice is its own alert
	// Incidents (event.v4). An incident is known by its episode, not by its location: the
	// correlator may move it to a better location as evidence comes, and a label that changed
	// would make it a new alert, i.e. a second page. The location is in the annotations.
	LabelIncident = "incident" // incidents and their member alerts: the incident's episode id
	LabelTeam     = "team"     // incidents: the team owning the location (contacts file), when declared
	// LabelSource marks every alert the bridge posts (value SourceValue): the bridge reconciles
	// only those, and `longhaul silence` never touches other alerts.
	LabelSource = "source"
	SourceValue = "longhaul"
)

// bridgeLabels is every label name the bridge sets: alertmanager.yml may route, group and
// inhibit on these only (config_test.go).
var bridgeLabels = []string{LabelAlertname, LabelRole, LabelSrc, LabelDst, LabelSrcSite, LabelDstSite, LabelSite,
	LabelSeverity, LabelProbe, LabelProtocol, LabelComponent, LabelScope, LabelCause, LabelNotice,
	LabelIncident, LabelTeam, LabelSource}

// Roles of the LabelRole label.
const (
	RoleAlert  = "alert"
	RoleInfo   = "info"
	RoleMember = "member" // an incident's member alert: notifies nobody, inhibits its link's alerts
)

// AlertIncidentMember is the alertname of the member alerts the bridge posts for each link an
// open incident explains. Alertmanager inhibits by equal labels only, and an incident's own
// src and dst are "*": one member alert per link, with that link's src and dst, is what lets
// alertmanager.yml mute the per-link alerts the incident explains (equal: [src, dst]). Members
// route to a receiver that notifies nobody.
const AlertIncidentMember = "incident_member"

// ScopePipeline and ScopeAgent are the values of LabelScope.
const (
	ScopePipeline = "pipeline"
	ScopeAgent    = "agent"
)

// Wildcard is an event's src or dst of an event about every source or every destination.
const Wildcard = "*"

// labels are the Alertmanager labels of an alert or info event (not of a recovery: a recovery
// resolves the alert it closes, with that alert's labels).
func labels(e Event, sites Sites, teams Contacts) map[string]string {
	l := map[string]string{
		LabelSource:    SourceValue,
		LabelAlertname: e.Kind,
		LabelSrc:       e.Src,
		LabelDst:       e.Dst,
		LabelSrcSite:   sites.Of(e.Src),
		LabelDstSite:   sites.Of(e.Dst),
		LabelSeverity:  e.Severity,
		LabelProbe:     e.ProbeID,
		LabelRole:      RoleAlert,
	}
	l[LabelSite] = l[LabelDstSite]
	if e.Dst == Wildcard {
		l[LabelSite] = l[LabelSrcSite]
	}
	if p := e.EvidenceString("probe"); p != "" {
		l[LabelProbe] = p
	}
	if e.Protocol != "" {
		l[LabelProtocol] = e.Protocol
	}
	if c := e.EvidenceString("component"); c != "" {
		l[LabelComponent] = c
	}
	if e.Kind == contract.KindPipelineDegraded {
		l[LabelScope] = ScopeAgent
		if e.Src == Wildcard {
			l[LabelScope] = ScopePipeline
		}
	}
	if e.Incident() {
		l[LabelIncident] = e.IncidentID()
		if t := teams.TeamOf(*e.Location, sites); t != "" {
			l[LabelTeam] = t
		}
	}
	if a, ok := contract.Updates[e.Kind]; ok { // the episode stays one alert, named by the kind it updates
		l[LabelAlertname] = a
	}
	if !contract.IsAlert(e.Kind) && !contract.IsUpdate(e.Kind) {
		l[LabelRole] = RoleInfo
		if e.Cause != "" {
			l[LabelCause] = e.Cause
		}
		if isCondition(e) { // one alert per link and cause, whichever probe re-raised it (condition.go)
			l[LabelProbe] = e.ProbeID
		} else {
			l[LabelNotice] = strconv.FormatInt(e.TS, 10)
		}
	}
	return l
}

// memberLabels are the labels of the member alert of link in incident e.
func memberLabels(e Event, link Link) map[string]string {
	return map[string]string{
		LabelSource:    SourceValue,
		LabelAlertname: AlertIncidentMember,
		LabelSrc:       link.Src,
		LabelDst:       link.Dst,
		LabelIncident:  e.IncidentID(),
		LabelRole:      RoleMember,
	}
}
