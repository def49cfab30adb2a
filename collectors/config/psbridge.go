package config

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	"longhaul/ingest/contract"
)

// validatePSBridge checks the pScheduler bridge's inputs. The HTTP endpoint is authenticated
// by a token always, and encrypted unless it listens on loopback only: archivers post from
// other hosts, and a token in clear on the wire is anyone's.
func validatePSBridge(l *errorList, b *PSBridge) {
	if b.Listen == "" && (b.TokenFile != "" || b.HostTokensDir != "" || b.TLSCertFile != "" || b.TLSKeyFile != "") {
		l.at("pscheduler_bridge.listen", "required when pscheduler_bridge has HTTP settings (host:port)")
	}
	if !b.Enabled() {
		return
	}
	if b.Listen != "" {
		host, _, err := net.SplitHostPort(b.Listen)
		switch {
		case err != nil:
			l.at("pscheduler_bridge.listen", "%q is not host:port", b.Listen)
		case (b.TLSCertFile == "") != (b.TLSKeyFile == ""):
			l.at("pscheduler_bridge.tls_key_file", "tls_cert_file and tls_key_file go together")
		case b.TLSCertFile == "" && !loopback(host):
			l.at("pscheduler_bridge.tls_cert_file", "required: %q is not a loopback address, and archivers would send their token in clear", b.Listen)
		}
		if b.TokenFile == "" && b.HostTokensDir == "" {
			l.at("pscheduler_bridge.token_file", "required with listen, or host_tokens_dir: the tokens archivers send (Authorization: Bearer TOKEN)")
		}
		if !strings.HasPrefix(b.Path, "/") {
			l.at("pscheduler_bridge.path", "%q must start with /", b.Path)
		}
	}
	if b.MaxBody < 4<<10 || b.MaxBody > 256<<20 {
		l.at("pscheduler_bridge.max_body", "must be between 4KiB and 256MiB, got %d", b.MaxBody)
	}
	if b.MaxConcurrent < 1 || b.MaxConcurrent > 64 {
		l.at("pscheduler_bridge.max_concurrent", "must be between 1 and 64, got %d", b.MaxConcurrent)
	}
	if b.HostRate < 0.01 || b.HostRate > 100_000 {
		l.at("pscheduler_bridge.host_rate", "must be between 0.01 and 100000 results a second, got %g", b.HostRate)
	}
	if b.HostBurst < 1 || b.HostBurst > 1_000_000 {
		l.at("pscheduler_bridge.host_burst", "must be between 1 and 1000000, got %d", b.HostBurst)
	}
	if b.MaxSamples < 1000 || b.MaxSamples > 10_000_000 {
		l.at("pscheduler_bridge.max_samples", "must be between 1000 and 10000000, got %d", b.MaxSamples)
	}
	if b.Topic != "" && !strings.HasPrefix(b.Group, PSBridgeGroupPrefix) {
		l.at("pscheduler_bridge.group", "%q must start with %s (the psbridge Kafka user may use only those groups)", b.Group, PSBridgeGroupPrefix)
	}
	if b.SeenCapacity < 1000 || b.SeenCapacity > 50_000_000 {
		l.at("pscheduler_bridge.seen_capacity", "must be between 1000 and 50000000, got %d", b.SeenCapacity)
	}
	validateHosts(l, b.Hosts)
}

// validateHosts: each identity is one the bridge knows (psbridge.Hosts), with at least one host.
func validateHosts(l *errorList, hosts map[string][]string) {
	for _, who := range slices.Sorted(maps.Keys(hosts)) {
		path := "pscheduler_bridge.hosts." + who
		if !contract.IsBridgeIdentity(who) {
			l.at(path, "%q is not an identity: %s (the HTTP token every host shares), %sNAME (one host's token, `longhaul admin add-pscheduler-host NAME --bridge-url URL`), %s (the certificate every host shared) or %sNAME (one host's certificate, `longhaul admin add-pscheduler-host NAME`)",
				who, contract.HTTPArchiver, contract.HTTPHostPrefix, contract.SharedArchiver, contract.OwnTopicArchiverPrefix)
		}
		if len(hosts[who]) == 0 {
			l.at(path, "no host: list the hosts it may report for")
		}
		for i, h := range hosts[who] {
			checkHostName(l, fmt.Sprintf("%s[%d]", path, i), h)
		}
	}
}

// loopback says whether host is a loopback address or localhost.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
