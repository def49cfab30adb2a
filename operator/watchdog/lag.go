package watchdog

import (
	"fmt"
	"strings"
)

// LagCheck: each watched consumer group keeps up. A group's lag is growing when it is above Min
// in each of the last Cycles observations and never fell from one to the next: a consumer that
// commits as it goes (Telegraf after each delivery, the job at each checkpoint) makes it fall.
// Min stays above what an idle consumer shows (a transaction marker per partition of a topic the
// job writes transactionally counts as one).
type LagCheck struct {
	Min    int64
	Cycles int

	history map[string][]int64 // per group, the last Cycles lags
}

// LagComponent is the component of a group's lag.
func LagComponent(group string) string { return ComponentLag + "/" + group }

// Judge implements Check.
func (c *LagCheck) Judge(o *Observations) []Finding {
	if c.history == nil {
		c.history = map[string][]int64{}
	}
	var out []Finding
	for _, g := range o.Lags {
		f := Finding{Component: LagComponent(g.Group), Subject: AnySubject, Severity: SeverityWarning,
			Evidence: map[string]any{"group": g.Group}}
		if g.Err != nil {
			delete(c.history, g.Group)
			f.Message = fmt.Sprintf("group %s: lag unreadable: %v", g.Group, g.Err)
			f.Evidence["error"] = g.Err
			out = append(out, f)
			continue
		}
		h := append(c.history[g.Group], g.Lag)
		if len(h) > c.Cycles {
			h = h[len(h)-c.Cycles:]
		}
		c.history[g.Group] = h
		f.Evidence["lag"] = g.Lag
		f.Evidence["partitions"] = g.Partitions
		f.Evidence["state"] = g.State
		f.Evidence["history"] = joinInts(h)
		switch {
		case g.Partitions == 0:
			f.Healthy = true
			f.Message = fmt.Sprintf("group %s has committed no offset yet", g.Group)
		case g.Lag > c.Min && len(h) < c.Cycles:
			f.Healthy, f.Tentative = true, true
			f.Message = fmt.Sprintf("group %s lag %d (%d of %d looks so far)", g.Group, g.Lag, len(h), c.Cycles)
		case growing(h, c.Cycles, c.Min):
			f.Message = fmt.Sprintf("group %s falls behind: lag %d, not shrinking over the last %d looks (%s)",
				g.Group, g.Lag, len(h), joinInts(h))
		default:
			f.Healthy = true
			f.Message = fmt.Sprintf("group %s lag %d", g.Group, g.Lag)
		}
		out = append(out, f)
	}
	return out
}

// growing: n observations, each above min and none below the one before.
func growing(h []int64, n int, min int64) bool {
	if len(h) < n || n == 0 {
		return false
	}
	for i, v := range h {
		if v <= min || (i > 0 && v < h[i-1]) {
			return false
		}
	}
	return true
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " ")
}
