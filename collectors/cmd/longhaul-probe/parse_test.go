package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"longhaul/ingest/schema"
)

// goldenDirs are the parsers' golden cases (owned by the probe packages) by tool: the command
// must give, byte for byte, what the package tests expect.
var goldenDirs = map[string][]string{
	"iperf3":     {"../../../probes/throughput/testdata/iperf3"},
	"iperf2":     {"../../../probes/throughput/testdata/iperf2"},
	"traceroute": {"../../../probes/path/testdata/traceroute"},
	"tracepath":  {"../../../probes/path/testdata/tracepath"},
	"mtr":        {"../../../probes/path/testdata/mtr"},
	"ping":       {"../../../probes/rtt/testdata/ping"},
	"pscheduler": {"../../../probes/throughput/testdata/pscheduler", "../../../probes/path/testdata/pscheduler", "../../../probes/rtt/testdata/pscheduler",
		"../../../probes/throughput/testdata/pscheduler-result", "../../../probes/all/testdata/pscheduler"},
}

func run(args []string, stdin string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = app.Run(append([]string{"parse"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func caseArgs(t *testing.T, dir string) []string {
	b, err := os.ReadFile(filepath.Join(dir, "args.txt"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func inputOf(t *testing.T, dir string) string {
	for _, n := range []string{"input.txt", "input.json"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return filepath.Join(dir, n)
		}
	}
	t.Fatalf("%s: no input", dir)
	return ""
}

func TestParseGivesTheGoldenSamplesOfEveryParser(t *testing.T) {
	reg, err := schema.Load("../../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for tool, dirs := range goldenDirs {
		for _, d := range dirs {
			cases, err := os.ReadDir(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				if !c.IsDir() {
					continue
				}
				dir := filepath.Join(d, c.Name())
				t.Run(tool+"/"+c.Name(), func(t *testing.T) {
					args := append(append([]string{"--tool", tool}, caseArgs(t, dir)...), inputOf(t, dir))
					code, out, errOut := run(args, "")
					if want, err := os.ReadFile(filepath.Join(dir, "error.txt")); err == nil {
						if code != 1 || out != "" || !strings.Contains(errOut, strings.TrimSpace(string(want))) {
							t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errOut, want)
						}
						return
					}
					want, err := os.ReadFile(filepath.Join(dir, "expected.jsonl"))
					if err != nil {
						t.Fatal(err)
					}
					if code != 0 || out != string(want) {
						t.Fatalf("exit %d, stderr %s\n got:\n%s\nwant:\n%s", code, errOut, out, want)
					}
					for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
						if err := reg.Validate([]byte(line)); err != nil {
							t.Errorf("line %d: %v", i+1, err)
						}
					}
				})
				n++
			}
		}
	}
	if n < 60 {
		t.Fatalf("only %d golden cases", n)
	}
}

// testdata/parse/<case>/ holds inputs the command must refuse: args.txt (with --tool),
// the input and error.txt, the message stderr must contain.
func TestMalformedInputExitsNonZeroNamingWhereAndWritesNothing(t *testing.T) {
	cases, _ := os.ReadDir("testdata/parse")
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		dir := filepath.Join("testdata/parse", c.Name())
		t.Run(c.Name(), func(t *testing.T) {
			want, _ := os.ReadFile(filepath.Join(dir, "error.txt"))
			code, out, errOut := run(append(caseArgs(t, dir), inputOf(t, dir)), "")
			if code != 1 || out != "" || !strings.Contains(errOut, strings.TrimSpace(string(want))) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errOut, strings.TrimSpace(string(want)))
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	in := "../../../probes/rtt/testdata/ping/loopback-5/input.txt"
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"no tool":          {[]string{"--src", "a", "--dst", "b", "--ts", "1795239679000", in}, "--tool"},
		"unknown tool":     {[]string{"--tool", "nmap", "--src", "a", "--dst", "b", in}, `--tool: "nmap"`},
		"no dst":           {[]string{"--tool", "ping", "--src", "a", "--ts", "1795239679000", in}, "--src and --dst are required"},
		"flag-like src":    {[]string{"--tool", "ping", "--src", "-x", "--dst", "b", in}, "--src"},
		"src with a space": {[]string{"--tool", "ping", "--src", "a b", "--dst", "b", in}, `--src: "a b"`},
		"ts in seconds":    {[]string{"--tool", "ping", "--src", "a", "--dst", "b", "--ts", "1795239679", in}, "--ts: time 1795239679 is not epoch milliseconds"},
		"two files":        {[]string{"--tool", "ping", "--src", "a", "--dst", "b", in, in}, "give one FILE"},
		"no file":          {[]string{"--tool", "ping", "--src", "a", "--dst", "b"}, "give one FILE"},
		"empty probe id":   {[]string{"--tool", "ping", "--src", "a", "--dst", "b", "--probe-id", "", in}, "--probe-id"},
		"unknown flag":     {[]string{"--tool", "ping", "--verbose", in}, "longhaul-probe parse: unknown flag --verbose\n"},
	} {
		code, out, errOut := run(c.args, "")
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) || !strings.HasSuffix(errOut, "\nrun 'longhaul-probe parse --help' for usage\n") {
			t.Errorf("%s: exit %d, stderr %q, want 2 and %q", name, code, errOut, c.want)
		}
	}
	if code, out, errOut := run([]string{"--help"}, ""); code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: longhaul-probe parse --tool TOOL") {
		t.Errorf("--help: %d %q %q", code, out, errOut)
	}
}

func TestStdinFlagsAfterTheFileAndIdempotentRunIDs(t *testing.T) {
	b, _ := os.ReadFile("../../../probes/rtt/testdata/ping/loopback-5/input.txt")
	code, fromStdin, _ := run([]string{"--tool", "ping", "-", "--src", "longhaul-dev", "--dst", "loopback", "--ts", "1795239679000"}, string(b))
	if code != 0 {
		t.Fatal(code)
	}
	want, _ := os.ReadFile("../../../probes/rtt/testdata/ping/loopback-5/expected.jsonl")
	if fromStdin != string(want) {
		t.Fatalf("stdin:\n%s\nwant:\n%s", fromStdin, want)
	}
	_, again, _ := run([]string{"--tool", "ping", "--src", "longhaul-dev", "--dst", "loopback", "--ts", "1795239679000", "-"}, string(b))
	_, other, _ := run([]string{"--tool", "ping", "--src", "longhaul-dev", "--dst", "loopback", "--ts", "1795239679000", "-"}, string(b)+"\n")
	if again != fromStdin || runID(t, other) == runID(t, again) {
		t.Fatalf("run ids: same input %s / %s, other input %s", runID(t, again), runID(t, fromStdin), runID(t, other))
	}
}

func runID(t *testing.T, line string) string {
	i := strings.Index(line, `"run_id":"`)
	if i < 0 {
		t.Fatalf("no run_id in %q", line)
	}
	rest := line[i+10:]
	return rest[:strings.IndexByte(rest, '"')]
}

func TestTsIsRequiredWithoutAClockAndIgnoredWithOne(t *testing.T) {
	in := "../../../probes/throughput/testdata/iperf2/seed000-umn-tcp-557Mbit/input.txt"
	code, out, errOut := run([]string{"--tool", "iperf2", "--src", "a", "--dst", "b", in}, "")
	if code != 1 || out != "" || !strings.Contains(errOut, "--ts") {
		t.Fatalf("iperf2 without --ts: %d %q %q", code, out, errOut)
	}
	in = "../../../probes/throughput/testdata/iperf3/tcp-1stream-lo/input.json"
	code, out, errOut = run([]string{"--tool", "iperf3", "--src", "a", "--dst", "b", "--ts", "1325746800000", in}, "")
	if code != 0 || strings.Contains(out, "1325746800000") || !strings.Contains(errOut, "--ts ignored") {
		t.Fatalf("iperf3 with its own clock: %d %q", code, errOut)
	}
	in = "../../../probes/throughput/testdata/iperf3/connection-refused-lo/input.json"
	if code, _, errOut = run([]string{"--tool", "iperf3", "--src", "a", "--dst", "b", in}, ""); code != 1 || !strings.Contains(errOut, "--ts") {
		t.Fatalf("failed iperf3 run without --ts: %d %q", code, errOut)
	}
}
