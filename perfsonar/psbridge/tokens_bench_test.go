package psbridge

import (
	"fmt"
	"testing"
)

// BenchmarkIdentify is the cost of telling which host posted, once per post, at the fleets'
// sizes (WLCG's ~250 hosts, the public fleet's ~2,400, a 10,000-host deployment): a host's own
// token, and a token nobody has.
func BenchmarkIdentify(b *testing.B) {
	for _, n := range []int{250, 2400, 10000} {
		dir := b.TempDir()
		for i := range n {
			writeToken(b, dir, fmt.Sprintf("host%05d", i), fmt.Sprintf("%064x", i*7919+1))
		}
		ts, err := NewTokens([]byte("shared-token"), "http", dir, "http-", func(string) bool { return true })
		if err != nil {
			b.Fatal(err)
		}
		known := fmt.Sprintf("%064x", (n/2)*7919+1)
		for _, c := range []struct{ name, bearer, want string }{
			{"known", known, fmt.Sprintf("http-host%05d", n/2)},
			{"unknown", fmt.Sprintf("%064x", 3), ""},
		} {
			b.Run(fmt.Sprintf("hosts=%d/%s", n, c.name), func(b *testing.B) {
				for b.Loop() {
					if who, _ := ts.Identify(c.bearer); who != c.want {
						b.Fatalf("%q, want %q", who, c.want)
					}
				}
			})
		}
	}
}
