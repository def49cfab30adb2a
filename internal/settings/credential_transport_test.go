package settings

import (
	"strings"
	"testing"
)

func TestACredentialGoesToARemoteServerOverHTTPSOnly(t *testing.T) {
	for _, ok := range []string{
		"https://am.example.org:9093", "http://127.0.0.1:9193", "http://localhost:8086", "http://[::1]:8086",
		"http://127.0.0.2:1",
	} {
		if err := CredentialTransport("alertmanager", ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://am.example.org:9093", "http://10.0.0.5:8086", "http://[2001:db8::1]:8086", "http://localhost.example.org"} {
		err := CredentialTransport("influxdb", bad)
		if err == nil || !strings.Contains(err.Error(), "over https only") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
