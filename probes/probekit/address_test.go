package probekit

import "testing"

func TestAddressCheckAllowsNamesAndIPs(t *testing.T) {
	for _, ok := range []string{"ps1.fnal.gov", "192.0.2.7", "2001:db8::1", "fe80::1%eth0", "host-1_a"} {
		if msg := CheckAddress(ok); msg != "" {
			t.Errorf("%q rejected: %s", ok, msg)
		}
	}
	for _, bad := range []string{"", "-c", "a b", "a\tb", "a;b", "a|b", "`x`", "a&b", "a>b", "[::1]", "a/b"} {
		if CheckAddress(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}
