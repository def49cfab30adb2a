package path

import (
	"bytes"
	"encoding/json"

	"longhaul/probes/probekit"
)

// psAS is a trace hop's AS. pScheduler's schema (#/pScheduler/AS) makes it an object with a
// number and an optional owner; its traceroute tool (pscheduler-tool-traceroute run) first
// stores traceroute -A's "[AS64500]" as the number alone and replaces it with the object only
// when its own AS lookup answers for that address, so a bare number reaches archives too.
// Both read; the owner has no place in a sample.
type psAS struct {
	Number *probekit.Int `json:"number"`
}

// UnmarshalJSON takes {"number": n, "owner": "…"} or n.
func (a *psAS) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] != '{' && b[0] != 'n' {
		a.Number = new(probekit.Int)
		return a.Number.UnmarshalJSON(b)
	}
	type plain psAS // without this method
	return json.Unmarshal(b, (*plain)(a))
}
