package settings

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CredentialTransport refuses to send a credential (basic auth, a token) to rawURL over plain
// http unless the server is this host (loopback: localhost, 127.0.0.0/8, ::1): anyone on the path
// to a remote server would read it. what names the setting for the error.
func CredentialTransport(what, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if u.Scheme != "http" {
		return nil
	}
	host := strings.ToLower(u.Hostname())
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	return fmt.Errorf("%s %s: a credential goes to a remote server over https only (plain http is read on the path)", what, u.Redacted())
}
