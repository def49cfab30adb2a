package main

import (
	"context"
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
	if !strings.Contains(errb.String(), "longhaul report: --src and --dst go together\nrun 'longhaul report --help' for usage\n") {
		t.Fatal(errb.String())
	}
	for args, want := range map[string]string{
		"--site a --src a --dst b":                   "--site, --mesh and --src/--dst are scopes: give one",
		"--site a,,b":                                `--site: an empty site name in "a,,b"`,
		"--mesh wlcg-mesh":                           "--mesh and --psconfig go together",
		"--mesh m --psconfig t.json --site a":        "--site, --mesh and --src/--dst are scopes: give one",
		"--mesh m --psconfig t.json --src a --dst b": "--site, --mesh and --src/--dst are scopes: give one",
	} {
		errb.Reset()
		if code := dispatch(append([]string{"report"}, strings.Fields(args)...), nil, &out, &errb); code != 2 {
			t.Fatalf("report %s: exit %d", args, code)
		}
		if !strings.Contains(errb.String(), want) {
			t.Errorf("report %s: %s", args, errb.String())
		}
	}
}

func TestAMeshsSitesAreItsGroupsAddresses(t *testing.T) {
	tpl := "../../../perfsonar/psconfig/testdata/wlcg/template.json"
	got, err := meshSites(context.Background(), tpl, "lhcone")
	if err != nil || strings.Join(got, "|") != "lhcone-ps.bnl.gov|ps.noagent.example|psonar1.cern.ch|psonar2.cern.ch" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := meshSites(context.Background(), tpl, "lhcopn"); err == nil || !strings.Contains(err.Error(), `no group "lhcopn"`) {
		t.Fatalf("an unknown group: %v", err)
	}
}

func TestSiteListsAreCommaSeparated(t *testing.T) {
	got, err := siteList(" a.cern.ch, b.fnal.gov ")
	if err != nil || strings.Join(got, "|") != "a.cern.ch|b.fnal.gov" {
		t.Fatalf("%q %v", got, err)
	}
	if got, err := siteList(""); got != nil || err != nil {
		t.Fatalf("every site: %q %v", got, err)
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
	out.Reset()
	code = dispatch([]string{"dashboards", "expand", "--from", "0", "--to", "1", "--var", "site=a.b", "--var", "site=c",
		`"dst" =~ /^$site$/`}, nil, &out, &errb)
	if code != 0 || out.String() != `"dst" =~ /^(a\.b|c)$/`+"\n" {
		t.Fatalf("a name given twice: code %d, %q", code, out.String())
	}
}

func TestEveryCommandFollowsTheHelpAndExitCodeRule(t *testing.T) {
	for _, c := range app.Commands {
		var out, errb strings.Builder
		if code := dispatch([]string{c.Name, "--help"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "usage: longhaul "+c.Name) || errb.Len() > 0 {
			t.Errorf("%s --help: exit %d, stdout %.60q, stderr %q", c.Name, code, out.String(), errb.String())
		}
		if c.Name == "replay" { // its flags are the job graph's, checked by Replay itself
			continue
		}
		out.Reset()
		errb.Reset()
		code := dispatch([]string{c.Name, "--no-such-flag"}, nil, &out, &errb)
		if lines := strings.Split(strings.TrimSpace(errb.String()), "\n"); code != 2 || len(lines) != 2 || !strings.HasPrefix(lines[1], "run 'longhaul "+c.Name) {
			t.Errorf("%s --no-such-flag: exit %d, stderr %q", c.Name, code, errb.String())
		}
	}
}
