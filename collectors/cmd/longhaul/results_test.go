package main

import (
	"strings"
	"testing"
	"time"
)

func TestAnAlertStaysOpenUntilItsRecoveryOnTheSameLink(t *testing.T) {
	events := []Event{
		{T: 1, Src: "cern", Dst: "fnal", Kind: "throughput_collapse"},
		{T: 2, Src: "cern", Dst: "kek", Kind: "unreachable"},
		{T: 3, Src: "cern", Dst: "kek", Kind: "throughput_recovery"}, // another link's recovery
		{T: 4, Src: "cern", Dst: "kek", Kind: "reachable"},
		{T: 5, Src: "cern", Dst: "fnal", Kind: "route_change"}, // not an alert with an episode
		{T: 6, Src: "cern", Dst: "triumf", Kind: "high_loss"},
	}
	var kinds []string
	for _, e := range openAlerts(events) {
		kinds = append(kinds, e.Dst+":"+e.Kind)
	}
	if got := strings.Join(kinds, ","); got != "fnal:throughput_collapse,triumf:high_loss" {
		t.Fatalf("open: %s", got)
	}
}

func TestTrendsReadThePolicyOfTheBucketSizeThenFinerOnes(t *testing.T) {
	if policyFor(24*time.Hour) != "daily" || policyFor(time.Hour) != "hourly" || policyFor(10*time.Minute) != "raw" {
		t.Fatal(policyFor(24*time.Hour), policyFor(time.Hour), policyFor(10*time.Minute))
	}
	if got := strings.Join(fallback("daily"), ","); got != "daily,hourly,raw" {
		t.Fatal(got)
	}
	if got := strings.Join(fallback("hourly"), ","); got != "hourly,raw" {
		t.Fatal(got)
	}
}

func TestDurationsTakeDays(t *testing.T) {
	for in, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "1d12h": 36 * time.Hour, "10m": 10 * time.Minute} {
		if got, err := parseDays(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	if _, err := parseDays("soon"); err == nil {
		t.Error("accepted soon")
	}
}

func TestQuotesInNamesCannotBreakTheQuery(t *testing.T) {
	if escape(`a'b\c`) != `a\'b\\c` {
		t.Fatal(escape(`a'b\c`))
	}
}

func TestResultCommandsRefuseBadArguments(t *testing.T) {
	var out, errb strings.Builder
	if code := dispatch([]string{"trends", "--src", "a"}, nil, &out, &errb); code != 2 {
		t.Fatalf("trends without --dst: %d", code)
	}
	if code := dispatch([]string{"report", "--src", "a"}, nil, &out, &errb); code != 2 {
		t.Fatalf("report with --src only: %d", code)
	}
	if !strings.Contains(errb.String(), "usage: longhaul report") {
		t.Fatal(errb.String())
	}
}
