package kafkaadmin

import "testing"

// The identities other institutions' hosts hold have quotas; the central services none (their
// volume is the whole mesh's), nor the stack's shared local archiver certificate.
func TestOnlyTheHostsOfOtherInstitutionsHaveQuotas(t *testing.T) {
	agent, _ := AgentPrincipal("cern-ps1")
	host, _ := PSchedulerHostPrincipal("fnal-ps1")
	for principal, want := range map[string]Quota{agent: AgentQuota, host: PSchedulerQuota} {
		q, ok := QuotaOf(principal)
		if !ok || q != want || q.ProduceBps <= 0 || q.FetchBps <= 0 {
			t.Errorf("%s: quota %+v %v, want %+v", principal, q, ok, want)
		}
	}
	for _, p := range append(append([]string{}, Services...), append(OptionalServices, PScheduler)...) {
		if q, ok := QuotaOf(p); ok {
			t.Errorf("%s has a quota %+v: a central service's volume is the mesh's", p, q)
		}
	}
	// an agent's day of spooled samples (a few kB a run, a run a minute at most) drains in seconds
	if AgentQuota.ProduceBps < 256<<10 {
		t.Errorf("agent quota %d B/s: a spool drain after an outage would crawl", AgentQuota.ProduceBps)
	}
}
