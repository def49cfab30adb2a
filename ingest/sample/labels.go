package sample

import (
	"regexp"
	"sort"
	"unicode/utf8"
)

// Labels are a probe's labels from its plan, carried by every throughput, path and rtt sample of
// its runs (v2): pSConfig's display names and other `_meta` of the test and the task, the task's
// `reference`, and each address's as `src.<key>` and `dst.<key>`. The limits are the schemas'
// ($defs/labels); CleanLabels makes any map fit them.
type Labels map[string]string

// The schemas' limits on labels.
const (
	MaxLabels     = 32
	MaxLabelValue = 256
)

var labelKey = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,63}$`)

// Labeled is a sample that carries labels.
type Labeled interface {
	SetLabels(Labels)
}

// ApplyLabels gives s the labels when it carries labels (a host snapshot does not) and l has any.
func ApplyLabels(s Sample, l Labels) {
	if x, ok := s.(Labeled); ok && len(l) > 0 {
		x.SetLabels(l)
	}
}

// Requested is a sample that can say which probe request its run answered.
type Requested interface {
	SetRequest(id string)
}

// ApplyRequest marks s as of a run for the request id, when s can carry it and id is set.
func ApplyRequest(s Sample, id string) {
	if x, ok := s.(Requested); ok && id != "" {
		x.SetRequest(id)
	}
}

// CleanLabels is l as the schemas accept it: keys that are not label names are left out, a value
// longer than MaxLabelValue bytes is cut at a character boundary, and of more than MaxLabels keys
// the first in sorted order are kept. Dropped lists the keys left out, sorted; nil when all fit.
func CleanLabels(l map[string]string) (clean Labels, dropped []string) {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !labelKey.MatchString(k) || len(clean) >= MaxLabels {
			dropped = append(dropped, k)
			continue
		}
		if clean == nil {
			clean = Labels{}
		}
		clean[k] = cut(l[k], MaxLabelValue)
	}
	return clean, dropped
}

// cut is s in at most n bytes, ending on a whole character (invalid bytes become U+FFFD first).
func cut(s string, n int) string {
	if !utf8.ValidString(s) {
		s = toValid(s)
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func toValid(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		out = append(out, r)
	}
	return string(out)
}
