package watchdog

import (
	"fmt"
	"io"
	"time"

	"longhaul/operator/render"
)

// WriteTable prints a status for a person: one line saying whether the watchdog is running and
// the pipeline healthy, a table of components (degraded first) and one of agents.
func WriteTable(w io.Writer, st Status, now time.Time) error {
	stale, age := st.Stale(now)
	verdict := "pipeline healthy"
	if !st.Healthy() {
		n := 0
		for _, c := range st.States {
			if c.State == StateDegraded {
				n++
			}
		}
		verdict = fmt.Sprintf("pipeline DEGRADED (%d)", n)
	}
	if stale {
		verdict = fmt.Sprintf("WATCHDOG STOPPED: its status is %s old (monitoring stopped); last verdict: %s", age.Round(time.Second), verdict)
	}
	fmt.Fprintf(w, "watchdog: %s; job %s; checked %s ago; %d events published", verdict, st.Job, age.Round(time.Second), st.Published)
	if st.Pending > 0 {
		fmt.Fprintf(w, ", %d not yet sent", st.Pending)
	}
	fmt.Fprintln(w)
	for _, e := range st.Errors {
		fmt.Fprintf(w, "  error: %s\n", e)
	}
	t := &render.TextTable{Header: []string{"component", "subject", "state", "since (UTC)", "message"}}
	for _, c := range st.States {
		t.Add(c.Component, c.Subject, c.State, sinceCell(c.Since, now), c.Message)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	if len(st.Agents) == 0 {
		_, err := fmt.Fprintln(w, "\nno agent seen yet")
		return err
	}
	fmt.Fprintln(w)
	a := &render.TextTable{Header: []string{"agent", "heard from", "last seen (UTC)", "ago", "usual gap", "limit", "clock skew", "records"}}
	for _, g := range st.Agents {
		skew := "-"
		if g.Skew != nil {
			skew = fmt.Sprintf("%+.1fs", *g.Skew)
		}
		from := "shared topics"
		if g.Own {
			from = "its own identity"
		}
		a.Add(g.Host, from, clock(g.LastSeen), secondsCell(now.Sub(time.UnixMilli(g.LastSeen)).Seconds()),
			secondsCell(g.UsualGap), secondsCell(g.Limit), skew, fmt.Sprint(g.Records))
	}
	return a.Write(w)
}

func clock(msec int64) string {
	if msec == 0 {
		return "-"
	}
	return time.UnixMilli(msec).UTC().Format("2006-01-02 15:04:05")
}

func sinceCell(msec int64, now time.Time) string {
	if msec == 0 {
		return "-"
	}
	return fmt.Sprintf("%s (%s ago)", clock(msec), now.Sub(time.UnixMilli(msec)).Round(time.Second))
}

func secondsCell(s float64) string {
	if s <= 0 {
		return "-"
	}
	return (time.Duration(s * float64(time.Second))).Round(time.Second).String()
}
