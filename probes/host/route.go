package host

import (
	"fmt"
	"regexp"
	"strings"
)

// ifNameRE is what Linux accepts as an interface name, minus '/' and whitespace: the name is
// used in a /sys path.
var ifNameRE = regexp.MustCompile(`^[A-Za-z0-9_.:@-]{1,15}$`)

func ifNameOK(s string) bool { return ifNameRE.MatchString(s) && s != "." && s != ".." }

// ParseRouteGet reads the egress interface from `ip -o route get ADDR`:
//
//	10.95.0.2 via 10.99.0.254 dev lhvA src 10.99.0.1 uid 0 \    cache
//	local 127.0.0.1 dev lo src 127.0.0.1 uid 0 \    cache <local>
func ParseRouteGet(out []byte) (string, error) {
	f := strings.Fields(strings.SplitN(string(out), "\n", 2)[0])
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "dev" {
			if !ifNameOK(f[i+1]) {
				return "", fmt.Errorf("ip route get: interface name %q refused", f[i+1])
			}
			return f[i+1], nil
		}
	}
	return "", fmt.Errorf("ip route get: no \"dev\" in %q", strings.TrimSpace(string(out)))
}
