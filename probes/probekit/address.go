package probekit

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// ShellMeta are the characters a shell would interpret. Tools are never run through a shell,
// but an address carrying them is a mistake or an attack either way.
const ShellMeta = "`$;&|<>(){}[]*?!~'\"\\#="

var addressRE = regexp.MustCompile(`^[A-Za-z0-9._:%-]+$`)

// CheckAddress returns why addr cannot be handed to a tool as its target, or "": the rule of an
// agent config's targets[].address, and of the addresses that come from elsewhere (a pSConfig
// template).
func CheckAddress(addr string) string {
	switch {
	case addr == "":
		return "is empty"
	case strings.HasPrefix(addr, "-"):
		return "looks like a command-line flag"
	case strings.IndexFunc(addr, unicode.IsSpace) >= 0:
		return "contains whitespace"
	case strings.ContainsAny(addr, ShellMeta):
		i := strings.IndexAny(addr, ShellMeta)
		return fmt.Sprintf("contains shell metacharacter %q", addr[i:i+1])
	case len(addr) > 253 || !addressRE.MatchString(addr):
		return "is not a host name or IP address (letters, digits and . - : _ % only)"
	}
	return ""
}
