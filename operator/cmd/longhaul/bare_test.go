package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/internal/certtest"
)

// TestBinariesCopiedAloneToABareFolderWork builds both binaries, copies them into an empty
// folder and runs them there with an empty environment: nothing may come from a source tree
// (the schemas, topics and dashboards are embedded).
func TestBinariesCopiedAloneToABareFolderWork(t *testing.T) {
	bare := t.TempDir()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go: %v", err)
	}
	for pkg, name := range map[string]string{".": "longhaul", "../../../collectors/cmd/longhaul-probe": "longhaul-probe"} {
		if out, err := exec.Command(gobin, "build", "-o", filepath.Join(bare, name), pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	run := func(stdin string, name string, args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(bare, name), args...)
		cmd.Dir, cmd.Env, cmd.Stdin = bare, []string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin"}, strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(out), 0
	}
	for _, name := range []string{"longhaul", "longhaul-probe"} {
		if out, code := run("", name, "--version"); code != 0 || !strings.HasPrefix(out, name+" ") || !strings.Contains(out, "(commit ") {
			t.Errorf("%s --version: %d %q", name, code, out)
		}
	}

	valid, err := os.ReadFile("../../../ingest/schemas/examples/rtt_sample.v2/valid/ping-ok.json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.ReplaceAll(strings.TrimSpace(string(valid)), "\n", "") + "\n" + `{"schema":"rtt_sample","version":2}` + "\n"
	out, code := run(lines, "longhaul", "validate", "-")
	if code != 1 || !strings.Contains(out, "-:2:") || strings.Contains(out, "-:1:") || !strings.Contains(out, "1 valid, 1 invalid") {
		t.Errorf("validate with the embedded schemas: exit %d\n%s", code, out)
	}

	// the sample config, its credential files beside it: check passes with nothing else there
	sample, code := run("", "longhaul-probe", "config", "sample")
	if code != 0 {
		t.Fatalf("config sample: %d %s", code, sample)
	}
	ca := filepath.Join(bare, "ca.crt")
	pw := filepath.Join(bare, "kafka.password")
	os.WriteFile(pw, []byte("secret\n"), 0o600)
	caPEM, _ := certtest.SelfSigned(t, true)
	os.WriteFile(ca, caPEM, 0o644)
	cfg := strings.NewReplacer("/etc/longhaul/ca.crt", ca, "/etc/longhaul/kafka.password", pw,
		"# dir: /var/lib/longhaul/spool", "dir: "+filepath.Join(bare, "spool")).Replace(sample)
	os.WriteFile(filepath.Join(bare, "probe.yaml"), []byte(cfg), 0o644)
	if out, code := run("", "longhaul-probe", "check", "--config", "probe.yaml"); code != 0 {
		t.Errorf("check in a bare folder: exit %d\n%s", code, out)
	}
}
