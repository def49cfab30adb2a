package dashboards

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Range is the dashboard time range.
type Range struct{ From, To time.Time }

// roundSteps is Grafana's kbn.roundInterval: a raw interval below limit becomes step.
var roundSteps = []struct{ limit, step time.Duration }{
	{15 * time.Millisecond, 10 * time.Millisecond}, {35 * time.Millisecond, 20 * time.Millisecond},
	{75 * time.Millisecond, 50 * time.Millisecond}, {150 * time.Millisecond, 100 * time.Millisecond},
	{350 * time.Millisecond, 200 * time.Millisecond}, {750 * time.Millisecond, 500 * time.Millisecond},
	{1500 * time.Millisecond, time.Second}, {3500 * time.Millisecond, 2 * time.Second},
	{7500 * time.Millisecond, 5 * time.Second}, {12500 * time.Millisecond, 10 * time.Second},
	{17500 * time.Millisecond, 15 * time.Second}, {25 * time.Second, 20 * time.Second},
	{45 * time.Second, 30 * time.Second}, {90 * time.Second, time.Minute}, {210 * time.Second, 2 * time.Minute},
	{450 * time.Second, 5 * time.Minute}, {750 * time.Second, 10 * time.Minute}, {1050 * time.Second, 15 * time.Minute},
	{1500 * time.Second, 20 * time.Minute}, {2700 * time.Second, 30 * time.Minute}, {5400 * time.Second, time.Hour},
	{9000 * time.Second, 2 * time.Hour}, {16200 * time.Second, 3 * time.Hour}, {27000 * time.Second, 6 * time.Hour},
	{43200 * time.Second, 12 * time.Hour}, {604800 * time.Second, 24 * time.Hour}, {1814400 * time.Second, 7 * 24 * time.Hour},
}

// Interval is $__interval for a range drawn with about this many points, rounded like Grafana.
func Interval(r Range, points int) time.Duration {
	raw := r.To.Sub(r.From) / time.Duration(points)
	for _, s := range roundSteps {
		if raw < s.limit {
			return s.step
		}
	}
	return 30 * 24 * time.Hour
}

// influxDuration writes a duration as an InfluxQL literal: 60s, 500ms.
func influxDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%dms", d.Milliseconds())
}

var (
	rawVar   = regexp.MustCompile(`\$\{(\w+):raw\}`)
	regexVar = regexp.MustCompile(`/\^\$(\w+)\$/`)
	plainVar = regexp.MustCompile(`\$(\w+)`)
	special  = regexp.MustCompile(`[\\^$.|?*+()\[\]{}/]`)
)

// AllValue is a regex variable's value for all of its values (Grafana's allValue ".*").
const AllValue = ".*"

// valueSep joins the values of a multi-value variable (Values); no host or tag name holds it.
const valueSep = "\x00"

// Values is a multi-value variable's value: inside /^…$/ it matches any of vs, as Grafana
// writes several chosen values there, (a|b) with each regex-escaped.
func Values(vs ...string) string { return strings.Join(vs, valueSep) }

// Expand interpolates Grafana's macros and variables into an InfluxQL query: $timeFilter,
// $__interval, ${var:raw} (the value as it is: a mesh's regex), $var inside /^…$/ (regex-escaped,
// the variable's all-value, or several values as an alternation: Values) and elsewhere (one
// value only). An unknown variable is an error, so a query cannot silently match nothing.
func Expand(query string, r Range, points int, vars map[string]string) (string, error) {
	q := strings.ReplaceAll(query, "$timeFilter",
		fmt.Sprintf("time >= %dms and time <= %dms", r.From.UnixMilli(), r.To.UnixMilli()))
	q = strings.ReplaceAll(q, "$__interval", influxDuration(Interval(r, points)))
	var missing []string
	lookup := func(name string) string {
		v, ok := vars[name]
		if !ok {
			missing = append(missing, name)
		}
		return v
	}
	var several []string
	q = rawVar.ReplaceAllStringFunc(q, func(m string) string {
		name := rawVar.FindStringSubmatch(m)[1]
		v := lookup(name)
		if strings.Contains(v, valueSep) {
			several = append(several, name)
		}
		return v
	})
	q = regexVar.ReplaceAllStringFunc(q, func(m string) string { return "/^" + regexValue(lookup(regexVar.FindStringSubmatch(m)[1])) + "$/" })
	q = plainVar.ReplaceAllStringFunc(q, func(m string) string {
		v := lookup(m[1:])
		if strings.Contains(v, valueSep) {
			several = append(several, m[1:])
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("query uses undefined variable(s) %s", strings.Join(missing, ", "))
	}
	if len(several) > 0 {
		return "", fmt.Errorf("variable(s) %s have several values, which only a /^$var$/ match takes", strings.Join(several, ", "))
	}
	return q, nil
}

// regexValue is a regex variable's value as Grafana writes it inside /^…$/: the all-value as it
// is, one value escaped, several as an alternation of escaped values.
func regexValue(v string) string {
	if v == AllValue {
		return v
	}
	vs := strings.Split(v, valueSep)
	for i := range vs {
		vs[i] = escapeRegex(vs[i])
	}
	if len(vs) == 1 {
		return vs[0]
	}
	return "(" + strings.Join(vs, "|") + ")"
}

// escapeRegex is a value as a regex that matches it alone.
func escapeRegex(v string) string { return special.ReplaceAllString(v, `\$0`) }
