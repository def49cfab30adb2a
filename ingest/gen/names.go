package main

import (
	"strconv"
	"strings"
)

// initialisms are written in capitals inside Go names (Go's naming convention).
var initialisms = map[string]bool{"rtt": true, "id": true, "tcp": true, "udp": true}

// words splits "raw.rtt" or "loss_alarm_percent" into its lower-case words.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '_' })
}

// goName is the exported Go name of a contract name: "raw.rtt" → "RawRTT".
func goName(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		if initialisms[w] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// javaConst is the Java constant name of a contract name: "raw.rtt" → "RAW_RTT".
func javaConst(s string) string {
	return strings.ToUpper(strings.Join(words(s), "_"))
}

// number writes a threshold as a floating-point literal both Go and Java read as a double.
func number(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// wrap breaks text into lines of at most width characters, each starting with prefix.
func wrap(text, prefix string, width int) string {
	var lines []string
	line := prefix
	for _, w := range strings.Fields(text) {
		if line != prefix && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}
