package watchdog

import (
	"fmt"
	"time"

	"longhaul/ingest/contract"
)

// SkewCheck: each agent's clock is within Tolerance of the broker's, judged by the median of
// (the agent's sent time − the broker's append time) over its recent records, once MinSamples
// are known. The contract's ClockSkewToleranceS is the tolerance the Flink job applies too.
type SkewCheck struct {
	Tolerance  time.Duration
	MinSamples int
}

// DefaultSkewTolerance is the contract's tolerance.
const DefaultSkewTolerance = time.Duration(contract.ClockSkewToleranceS * float64(time.Second))

// Judge implements Check.
func (c SkewCheck) Judge(o *Observations) []Finding {
	var out []Finding
	for _, v := range o.Agents {
		if v.Skews < c.MinSamples {
			continue
		}
		f := Finding{Component: ComponentClock, Subject: v.Host, Severity: SeverityWarning,
			Healthy:  v.Skew.Abs() <= c.Tolerance,
			Evidence: map[string]any{"skew_s": seconds(v.Skew), "tolerance_s": seconds(c.Tolerance), "samples": v.Skews}}
		ahead := "ahead of"
		if v.Skew < 0 {
			ahead = "behind"
		}
		if f.Healthy {
			f.Message = fmt.Sprintf("agent %s's clock is %s %s the broker's", v.Host, v.Skew.Abs().Round(time.Millisecond), ahead)
		} else {
			f.Message = fmt.Sprintf("agent %s's clock is %s %s the broker's, beyond the tolerance of %s",
				v.Host, v.Skew.Abs().Round(time.Millisecond), ahead, c.Tolerance)
		}
		out = append(out, f)
	}
	return out
}
