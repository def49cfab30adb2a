package probekit

import (
	"fmt"
	"strings"
	"unicode"
)

// CheckTarget refuses a target the tool could read as something else: empty, starting with '-'
// (an option), or holding spaces, control or shell characters. Tools are never run through a
// shell, so this is about argv confusion and obvious mistakes, not quoting.
func CheckTarget(t string) error {
	switch {
	case t == "":
		return fmt.Errorf("target: empty")
	case strings.HasPrefix(t, "-"):
		return fmt.Errorf("target: %q starts with '-' and would be read as an option", t)
	case len(t) > 253:
		return fmt.Errorf("target: longer than 253 characters")
	}
	for _, r := range t {
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("`$;&|<>(){}[]*?!~'\"\\#=,/", r) {
			return fmt.Errorf("target: %q contains %q", t, r)
		}
	}
	return nil
}
