package watchdog

import (
	"testing"
	"time"
)

func TestAnAgentIsSilentPastThreeUsualGapsAndNeverBeforeTheFloor(t *testing.T) {
	c := SilenceCheck{Factor: 3, Floor: 2 * time.Minute, MinGaps: 3, Patience: 15 * time.Minute}
	hourly := AgentView{Host: "hourly", LastSeen: at(0), Gaps: 16, UsualGap: time.Hour, MaxGap: time.Hour}
	minutely := AgentView{Host: "minutely", LastSeen: at(0), Gaps: 16, UsualGap: time.Minute, MaxGap: 2 * time.Minute}
	fast := AgentView{Host: "fast", LastSeen: at(0), Gaps: 16, UsualGap: time.Second, MaxGap: time.Second}
	fresh := AgentView{Host: "fresh", LastSeen: at(0), Gaps: 1, UsualGap: time.Minute, MaxGap: time.Minute, Span: time.Minute}
	stream := AgentView{Host: "stream", LastSeen: at(0), Gaps: 0, Span: 20 * time.Minute} // never paused a second
	for _, c2 := range []struct {
		v       AgentView
		silent  float64
		healthy bool
	}{
		{hourly, 2.9 * 3600, true}, {hourly, 3.1 * 3600, false},
		{minutely, 179, true}, {minutely, 181, false},
		{fast, 119, true}, {fast, 121, false}, // the floor
		{fresh, 14 * 60, true}, {fresh, 16 * 60, false}, // unknown schedule: patience
		{stream, 119, true}, {stream, 121, false}, // heard for longer than the patience: the floor
	} {
		f := c.Judge(&Observations{Now: at(c2.silent), Agents: []AgentView{c2.v}})
		if len(f) != 1 || f[0].Healthy != c2.healthy || f[0].Subject != c2.v.Host || f[0].Component != ComponentAgent {
			t.Errorf("%s silent %gs: %+v", c2.v.Host, c2.silent, f)
		}
	}
	f := c.Judge(&Observations{Now: at(200), Agents: []AgentView{minutely}})[0]
	if f.Evidence["last_seen_ms"] != at(0).UnixMilli() || f.Evidence["limit_s"] != 180.0 || f.Evidence["silent_s"] != 200.0 {
		t.Fatalf("%+v", f.Evidence)
	}
}
