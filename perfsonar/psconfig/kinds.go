package psconfig

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"longhaul/probes/all"
)

// runner says how Longhaul runs one pSConfig test type: the probe kind, its tool, and the spec
// fields it carries over into the kind's params (pScheduler name → Longhaul param).
type runner struct {
	kind, tool string
	// fromDest: the test can be run faithfully from its dest when its source has no agent of
	// ours; the param that says so, if any ("reverse" for throughput).
	fromDest bool
	params   map[string]func(any) (string, string, error) // spec field → (param, value)
}

// runners: the test types Longhaul has a probe for.
var runners = map[string]runner{
	"throughput": {kind: "throughput", tool: "iperf3", fromDest: true, params: map[string]func(any) (string, string, error){
		"duration":    isoParam("duration", true),
		"omit":        isoParam("omit", true),
		"parallel":    intParam("streams"),
		"window-size": intParam("window"),
		"bandwidth":   intParam("bitrate"),
		"congestion":  stringParam("congestion"),
		"udp": func(v any) (string, string, error) {
			b, ok := v.(bool)
			if !ok {
				return "", "", fmt.Errorf("udp: want true or false, got %v", v)
			}
			if b {
				return "protocol", "udp", nil
			}
			return "protocol", "tcp", nil
		},
		"reverse": func(v any) (string, string, error) { // applied with the orientation (Entry.Reverse)
			if _, ok := v.(bool); !ok {
				return "", "", fmt.Errorf("reverse: want true or false, got %v", v)
			}
			return "", "", nil
		},
	}},
	// trace: the path from source to dest; from the dest it would be another path.
	"trace": {kind: "path", tool: "traceroute", params: map[string]func(any) (string, string, error){
		"hops": intParam("max_ttl"),
	}},
	// rtt: a round trip; from the dest it crosses the same two one-way paths.
	"rtt": {kind: "rtt", tool: "ping", fromDest: true, params: map[string]func(any) (string, string, error){
		"count":    intParam("count"),
		"interval": isoParam("interval", false),
		"length":   intParam("size"),
	}},
}

// measuredBy is who measures a test type Longhaul runs no probe of and reads from pScheduler's
// archivers instead (all.PSchedulerTests' ByPScheduler: one-way delay and loss need owamp at both
// ends, which the agent does not run; its rtt probe, ping, mixes both directions), "" otherwise.
func measuredBy(testType string) string {
	if t, ok := all.PSchedulerTestOf(testType); ok && t.ByPScheduler {
		return "pscheduler"
	}
	return ""
}

// notRun says why a test type has no Longhaul probe.
func notRun(testType string) string {
	return fmt.Sprintf("no Longhaul probe for test type %q (it runs %s; pScheduler's %s results come through the pScheduler bridge)",
		testType, all.PSchedulerTypes(false), all.PSchedulerTypes(true))
}

// specFields a plan always reads (they are the pair, not params).
var specFields = map[string]bool{"schema": true, "source": true, "dest": true, "source-node": true, "dest-node": true}

// paramsOf carries the spec over into the kind's params; the fields it cannot carry are
// returned sorted, for the plan to show.
func (r runner) paramsOf(spec map[string]any) (params map[string]string, ignored []string, err error) {
	params = map[string]string{}
	for field, v := range spec {
		if specFields[field] {
			continue
		}
		conv, ok := r.params[field]
		if !ok {
			ignored = append(ignored, field)
			continue
		}
		p, val, err := conv(v)
		if err != nil {
			return nil, nil, fmt.Errorf("spec.%w", err)
		}
		if p != "" {
			params[p] = val
		}
	}
	sort.Strings(ignored)
	return params, ignored, nil
}

func isoParam(param string, wholeSeconds bool) func(any) (string, string, error) {
	return func(v any) (string, string, error) {
		s, ok := v.(string)
		if !ok {
			return "", "", fmt.Errorf("%s: want an ISO 8601 duration, got %v", param, v)
		}
		d, err := ParseDuration(s)
		if err != nil {
			return "", "", fmt.Errorf("%s: %v", param, err)
		}
		if wholeSeconds {
			d = time.Duration(math.Ceil(d.Seconds())) * time.Second
		}
		return param, d.String(), nil
	}
}

func intParam(param string) func(any) (string, string, error) {
	return func(v any) (string, string, error) {
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || f < 0 {
			return "", "", fmt.Errorf("%s: want a whole number, got %v", param, v)
		}
		return param, strconv.FormatInt(int64(f), 10), nil
	}
}

func stringParam(param string) func(any) (string, string, error) {
	return func(v any) (string, string, error) {
		s, ok := v.(string)
		if !ok {
			return "", "", fmt.Errorf("%s: want a string, got %v", param, v)
		}
		return param, s, nil
	}
}
