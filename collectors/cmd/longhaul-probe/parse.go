package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"longhaul/collectors/probes/path"
	"longhaul/collectors/probes/probekit"
	"longhaul/collectors/probes/rtt"
	"longhaul/collectors/probes/throughput"
	"longhaul/collectors/sample"
)

const parseUsage = `usage: longhaul-probe parse --tool TOOL --src SRC --dst DST [--probe-id ID] [--ts EPOCH_MS] FILE|-

Parses one run's saved output into samples, written as JSON Lines to stdout. TOOL is
iperf3 (-J output), iperf2 (text), traceroute, ping or pscheduler (an archive message of a
throughput or trace test). --ts (epoch milliseconds) is the run's start, required when the
output carries no time (iperf2, traceroute, ping, failed iperf3 runs). For pscheduler, --src
and --dst default to the test's source and dest and the time is schedule.start. The run id is
derived from the input, so importing a file twice yields the same samples. Malformed input
prints where it is wrong and writes nothing.
`

// maxInput bounds what parse reads: an iperf3 -J of a long test is a few MB.
const maxInput = 64 << 20

type parseFunc func(input []byte, m probekit.Meta) ([]sample.Sample, error)

var parsers = map[string]parseFunc{
	"iperf3": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return throughput.ParseIperf3(in, m, throughput.Requested{})
	},
	"iperf2": throughput.ParseIperf2,
	"traceroute": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return path.ParseTraceroute(in, m, path.Requested{})
	},
	"ping": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return rtt.ParsePing(in, m, rtt.Requested{})
	},
	"pscheduler": parsePScheduler,
}

// parseCmd is `longhaul-probe parse`: exit 0 with the samples on stdout, 1 when the input is
// malformed (nothing written), 2 on a usage error.
func parseCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tool := fs.String("tool", "", "iperf3, iperf2, traceroute, ping or pscheduler")
	src := fs.String("src", "", "the link's src: the host that ran the tool (that sent the data)")
	dst := fs.String("dst", "", "the link's dst: the target")
	probeID := fs.String("probe-id", "import", "probe_id of the samples")
	ts := fs.Int64("ts", 0, "run start in epoch milliseconds, for outputs that carry no time")
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stderr, parseUsage)
		return 0
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "longhaul-probe parse: "+format+"\n", a...)
		return 2
	}
	if err != nil {
		return fail("%v\n\n%s", err, parseUsage)
	}
	parse, ok := parsers[*tool]
	switch {
	case !ok:
		return fail("--tool: %q is not iperf3, iperf2, traceroute, ping or pscheduler", *tool)
	case len(files) != 1:
		return fail("give one FILE, or - for stdin (got %d)", len(files))
	case *tool != "pscheduler" && (*src == "" || *dst == ""):
		return fail("--src and --dst are required for %s", *tool)
	case *probeID == "" || len(*probeID) > 200:
		return fail("--probe-id: 1 to 200 characters")
	}
	for flagName, v := range map[string]string{"--src": *src, "--dst": *dst} {
		if v != "" && !probekit.ValidHost(v) {
			return fail("%s: %q is not a valid host name (letters, digits and . _ : - ; starting with a letter or digit)", flagName, v)
		}
	}
	m := probekit.Meta{Src: *src, Dst: *dst, ProbeID: *probeID}
	if *ts != 0 {
		if _, err := probekit.CheckEpochMS(*ts); err != nil {
			return fail("--ts: %v", err)
		}
		m.Start = time.UnixMilli(*ts)
	}
	name := files[0]
	input, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "longhaul-probe parse: %v\n", err)
		return 1
	}
	if *tool != "pscheduler" {
		m.RunID = probekit.ImportRunID(*tool, input)
	}
	ss, err := parse(input, m)
	if err != nil {
		fmt.Fprintf(stderr, "longhaul-probe parse: %s: %v\n", name, err)
		return 1
	}
	var buf bytes.Buffer
	for _, s := range ss {
		b, err := json.Marshal(s)
		if err != nil {
			fmt.Fprintf(stderr, "longhaul-probe parse: %s: %v\n", name, err)
			return 1
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if *ts != 0 && len(ss) > 0 && ss[len(ss)-1].Head().TS != *ts {
		fmt.Fprintf(stderr, "longhaul-probe parse: note: %s carries its own start time; --ts ignored\n", name)
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "longhaul-probe parse: %v\n", err)
		return 1
	}
	return 0
}

// parseInterleaved lets flags come after the file too: parse --tool ping out.txt --ts ….
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		files, args = append(files, args[0]), args[1:]
	}
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("%s: larger than %d MB: import one run per file", name, maxInput>>20)
	}
	return b, nil
}

// parsePScheduler picks the importer from the message's test type.
func parsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	a, err := probekit.DecodeArchive(input)
	if err != nil {
		return nil, err
	}
	switch a.Test.Type {
	case "throughput":
		return throughput.ParsePScheduler(input, m)
	case "trace":
		return path.ParsePScheduler(input, m)
	}
	return nil, probekit.PathError("test.type", "%q: only throughput and trace results can be imported", strings.TrimSpace(a.Test.Type))
}
