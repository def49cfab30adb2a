package render

import (
	"fmt"
	"math"
	"time"
)

// FormatTime writes epoch milliseconds as UTC minutes, the way every table of the CLI shows time.
func FormatTime(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04") }

// FormatValue writes a number in a Grafana unit: bps, ms, percent, percentunit, short.
func FormatValue(v float64, unit string) string {
	switch unit {
	case "bps":
		return formatSI(v, "bit/s")
	case "ms":
		return trim(v) + " ms"
	case "percent":
		return trim(v) + " %"
	case "percentunit":
		return trim(v*100) + " %"
	}
	return formatSI(v, "")
}

func formatSI(v float64, unit string) string {
	prefixes := []string{"", "k", "M", "G", "T"}
	i := 0
	for math.Abs(v) >= 1000 && i < len(prefixes)-1 {
		v /= 1000
		i++
	}
	s := trim(v)
	if unit == "" {
		return s + prefixes[i]
	}
	return s + " " + prefixes[i] + unit
}

func trim(v float64) string {
	switch {
	case v == math.Trunc(v) && math.Abs(v) < 1e6:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2g", v)
}
