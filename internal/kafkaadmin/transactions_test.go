package kafkaadmin

import (
	"regexp"
	"testing"
)

func TestAJobsTransactionsAreItsSinksAndNoOtherJobs(t *testing.T) {
	re := regexp.MustCompile(JobTransactions("longhaul-demo"))
	for id, want := range map[string]bool{
		"longhaul-demo-events-0-12":       true,
		"longhaul-demo-deadletter-1-3":    true,
		"longhaul-demo-x-events-0-12":     false, // job longhaul-demo-x
		"longhaul-demox-events-0-12":      false,
		"other-longhaul-demo-events-0-1":  false,
		"longhaul-demo-events-0":          false,
		"longhaul.demo-events-0-12":       false, // the name is literal, not a pattern
		"longhaul-demo-events-0-12-extra": false,
	} {
		if re.MatchString(id) != want {
			t.Errorf("%s: matched %v", id, !want)
		}
	}
}
