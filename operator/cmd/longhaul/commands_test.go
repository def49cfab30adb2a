package main

import (
	"strings"
	"testing"
	"time"
)

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

func TestDashboardsExpandPrintsWhatGrafanaWouldRun(t *testing.T) {
	var out, errb strings.Builder
	code := dispatch([]string{"dashboards", "expand", "--from", "1000", "--to", "3601000", "--var", "src=a.b",
		`SELECT x FROM "t" WHERE "src" =~ /^$src$/ AND $timeFilter GROUP BY time($__interval)`}, nil, &out, &errb)
	want := `SELECT x FROM "t" WHERE "src" =~ /^a\.b$/ AND time >= 1000ms and time <= 3601000ms GROUP BY time(5s)` + "\n"
	if code != 0 || out.String() != want {
		t.Fatalf("code %d\n got %q\nwant %q\n%s", code, out.String(), want, errb.String())
	}
	if code := dispatch([]string{"dashboards", "expand", "--from", "0", "--to", "1", "$nope"}, nil, &out, &errb); code != 1 {
		t.Fatalf("unknown variable: %d", code)
	}
}
