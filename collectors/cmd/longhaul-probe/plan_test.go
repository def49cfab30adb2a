package main

import (
	"os"
	"strings"
	"testing"
)

// `plan` prints the golden plan of psconfig/testdata for each host.
func TestPlanPrintsTheHostsPlanAsJSONLines(t *testing.T) {
	for _, c := range []struct{ dir, host string }{
		{"note-example", "ps1.example.org"},
		{"note-example", "ps2.example.org"},
		{"wlcg", "psonar1.cern.ch"},
		{"wlcg", "lhcone-ps.bnl.gov"},
	} {
		dir := "../../../perfsonar/psconfig/testdata/" + c.dir
		want, err := os.ReadFile(dir + "/" + c.host + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		code, out, errs := invoke("plan", "--psconfig", dir+"/template.json", "--host", c.host)
		if code != 0 || errs != "" || out != string(want) {
			t.Errorf("%s --host %s: exit %d\nstderr: %s\nstdout:\n%s\nwant:\n%s", c.dir, c.host, code, errs, out, want)
		}
	}
}

// --list-hosts names the addresses of the template with its includes, for a script.
func TestPlanListsTheHostsOfATemplateWithItsIncludes(t *testing.T) {
	code, out, errs := invoke("plan", "--psconfig", "../../../perfsonar/psconfig/testdata/include-chain/template.json", "--list-hosts")
	if code != 0 || out != "ams\nchi\nsea\n" {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
}

func TestPlanSaysWhatIsWrong(t *testing.T) {
	tmpl := "../../../perfsonar/psconfig/testdata/note-example/template.json"
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"plan", "--host", "a"}, 2, "longhaul-probe plan: --psconfig is required\n"},
		{[]string{"plan", "--psconfig", tmpl}, 2, "longhaul-probe plan: --host is required\n"},
		{[]string{"plan", "--psconfig", tmpl, "--host", "ps9.example.org"}, 1, "no address of " + tmpl + " is ps9.example.org"},
		{[]string{"plan", "--psconfig", "/nonexistent/mesh.json", "--host", "a"}, 1, "/nonexistent/mesh.json: no such file or directory"},
	} {
		code, out, errs := invoke(c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", c.args, code, out, errs)
		}
	}
}
