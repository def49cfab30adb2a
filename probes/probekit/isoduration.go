package probekit

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
)

// isoDurRE is pScheduler's own pattern for the ISO 8601 durations it writes for times
// (#/pScheduler/Duration in python-pscheduler's jsonval.py): PT0.000123S, PT1M2S, P1DT2H, P2W;
// weeks, days, hours, minutes and seconds, each with an optional fraction; no years or months
// (their length varies). Like pScheduler's, it takes "P" and "PT" (no part at all: zero).
var isoDurRE = regexp.MustCompile(`^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$`)

// isoDurUnits are the seconds of each part of isoDurRE, in its order.
var isoDurUnits = []float64{7 * 86400, 86400, 3600, 60, 1}

// maxISODuration bounds a duration (about 31 years): beyond it a figure is garbage.
const maxISODuration = 1e9

// ISODurationSeconds parses an ISO 8601 duration of pScheduler's form into seconds.
func ISODurationSeconds(s string) (float64, error) {
	m := isoDurRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not an ISO 8601 duration like PT0.000123S", Snippet(s))
	}
	total := 0.0
	for i, mult := range isoDurUnits {
		if m[i+1] == "" {
			continue
		}
		v, err := strconv.ParseFloat(m[i+1], 64)
		if err != nil {
			// strconv's own message quotes the whole number (thousands of digits, fuzzing
			// found): its reason alone ("value out of range") after our snippet.
			return 0, fmt.Errorf("%q: %v", Snippet(s), errors.Unwrap(err))
		}
		total += v * mult
	}
	if total > maxISODuration {
		return 0, fmt.Errorf("%q is out of range", Snippet(s))
	}
	return total, nil
}
