package alerting

import "time"

// HeartbeatName is the alertname of the heartbeat: an alert that fires for as long as the bridge
// and Alertmanager work. Alertmanager sends it every minute to a dead man's switch
// (LONGHAUL_ALERT_HEARTBEAT_URL: healthchecks.io, a pager's heartbeat), which pages when it stops
// — the one failure no alert of their own can report.
const HeartbeatName = "longhaul_heartbeat"

// heartbeat is the heartbeat alert as posted now: it ends three re-posts ahead, so it resolves
// (and stops reaching the dead man's switch) soon after the bridge stops.
func heartbeat(started, now time.Time, repost time.Duration) Alert {
	return Alert{
		Labels: map[string]string{LabelSource: SourceValue, LabelAlertname: HeartbeatName, LabelRole: "heartbeat",
			LabelSeverity: "none"},
		Annotations: map[string]string{AnnSummary: "the alert bridge and Alertmanager are working: this alert fires while " +
			"they do, and its absence at the dead man's switch means notifications have stopped"},
		StartsAt: started.UTC(),
		EndsAt:   now.Add(3 * repost).UTC(),
	}
}

// isHeartbeat reports whether labels are the heartbeat's (never an open event's).
func isHeartbeat(labels map[string]string) bool { return labels[LabelAlertname] == HeartbeatName }
