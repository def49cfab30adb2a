package psconfig

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// isoRE is pSConfig's duration: P[nW][nD][T[nH][nM][nS]], each n a decimal number; no years or
// months (their length is not fixed). Case as written in the schema: upper case.
var isoRE = regexp.MustCompile(`^P(?:([0-9]+(?:\.[0-9]+)?)W)?(?:([0-9]+(?:\.[0-9]+)?)D)?(?:T(?:([0-9]+(?:\.[0-9]+)?)H)?(?:([0-9]+(?:\.[0-9]+)?)M)?(?:([0-9]+(?:\.[0-9]+)?)S)?)?$`)

// ParseDuration reads an ISO 8601 duration as pSConfig writes them: PT6H, P1D, PT0.5S, P1W.
func ParseDuration(s string) (time.Duration, error) {
	m := isoRE.FindStringSubmatch(s)
	if m == nil || s == "P" || s == "PT" || (len(s) > 0 && s[len(s)-1] == 'T') {
		return 0, fmt.Errorf("%q is not an ISO 8601 duration P[nW][nD][T[nH][nM][nS]] (e.g. PT6H, PT30M, P1D)", s)
	}
	units := []time.Duration{7 * 24 * time.Hour, 24 * time.Hour, time.Hour, time.Minute, time.Second}
	var d float64
	for i, u := range units {
		if m[i+1] == "" {
			continue
		}
		v, err := strconv.ParseFloat(m[i+1], 64)
		if err != nil {
			return 0, fmt.Errorf("%q: %v", s, err)
		}
		d += v * float64(u)
	}
	if d > float64(1<<62) {
		return 0, fmt.Errorf("%q is too long", s)
	}
	return time.Duration(d), nil
}
