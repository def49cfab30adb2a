package watchdog

import (
	"fmt"
	"time"
)

// SilenceCheck: each agent publishes on its schedule. An agent is silent when nothing of it has
// reached the broker for longer than Factor × its usual gap (the median gap between its bursts of
// records), and never less than Floor. Until MinGaps gaps are known its schedule is not, and it
// gets max(Factor × its longest gap, Patience); but one heard for Patience already without that
// many gaps publishes without pause (every record within BurstGap of the last), and its usual
// gap is under BurstGap. A host whose silence alert was open when the watchdog restarted keeps
// the limit of that alert until its schedule is learned again.
type SilenceCheck struct {
	Factor   float64
	Floor    time.Duration
	MinGaps  int
	Patience time.Duration
}

// Limit is how long host may be silent.
func (c SilenceCheck) Limit(v AgentView) time.Duration {
	switch {
	case v.Gaps < c.MinGaps && v.Remembered > 0:
		return max(v.Remembered, c.Floor)
	case v.Gaps < c.MinGaps && v.Span >= c.Patience:
		return max(time.Duration(c.Factor*float64(max(v.MaxGap, BurstGap))), c.Floor)
	case v.Gaps < c.MinGaps:
		return max(time.Duration(c.Factor*float64(v.MaxGap)), c.Patience, c.Floor)
	}
	return max(time.Duration(c.Factor*float64(v.UsualGap)), c.Floor)
}

// Judge implements Check.
func (c SilenceCheck) Judge(o *Observations) []Finding {
	out := make([]Finding, 0, len(o.Agents))
	for _, v := range o.Agents {
		silent, limit := o.Now.Sub(v.LastSeen), c.Limit(v)
		f := Finding{Component: ComponentAgent, Subject: v.Host, Severity: SeverityWarning, Healthy: silent <= limit,
			Evidence: map[string]any{"last_seen_ms": ms(v.LastSeen), "silent_s": seconds(silent), "limit_s": seconds(limit),
				"usual_gap_s": seconds(v.UsualGap), "gaps": v.Gaps}}
		if f.Healthy {
			f.Message = fmt.Sprintf("agent %s last published %s ago", v.Host, silent.Round(time.Second))
		} else {
			f.Message = fmt.Sprintf("agent %s silent for %s, past its schedule (usual gap %s, limit %s)",
				v.Host, silent.Round(time.Second), v.UsualGap.Round(time.Second), limit.Round(time.Second))
		}
		out = append(out, f)
	}
	return out
}
