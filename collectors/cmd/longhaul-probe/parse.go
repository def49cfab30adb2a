package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/internal/cli"
	"longhaul/probes/all"
	"longhaul/probes/probekit"
)

const parseDoc = `Parses one run's saved output into samples, written as JSON Lines to stdout. TOOL is
iperf3 (-J output), iperf2 (text), traceroute (Linux, BSD, macOS, BusyBox, scamper,
paris-traceroute), tracepath, mtr (--report or --json), ping (iputils, BSD, macOS, BusyBox) or
pscheduler (a throughput, trace or rtt test's archive message, bare result or REST run
record). --ts (epoch milliseconds) is the run's start, required when the output carries no
time (iperf2, traceroute, tracepath, mtr, ping, failed iperf3 runs). For pscheduler, --src and
--dst default to the test's source and dest and the time is schedule.start; a bare result
needs all three. The run id is derived from the input, so importing a file twice yields the
same samples. Malformed input prints where it is wrong (line and column), writes nothing and
exits 1.`

// maxInput bounds what parse reads: an iperf3 -J of a long test is a few MB.
const maxInput = 64 << 20

// parseHeapLimit is parse's soft heap limit (unless $GOMEMLIMIT sets one): what a long log
// holds live is its input and its rows (~140 MB for 300 000 iperf 2 intervals, 45 MB), and
// without a limit the collector lets the heap grow to twice that before it runs. Measured
// in docs/benchmarks.md: 300 MB of RSS without it, 210 MB with it, for 0.2 s more CPU.
const parseHeapLimit = 200 << 20

// parseCmd is `longhaul-probe parse`: exit 0 with the samples on stdout, 1 when the input is
// malformed (nothing written), 2 on a usage error.
func parseCmd(env *cli.Env, args []string) int {
	fs := env.FlagSet("--tool TOOL --src SRC --dst DST [--probe-id ID] [--ts EPOCH_MS] FILE|-", parseDoc)
	fs.ArgsUsage = "FILE|-"
	tools := strings.Join(all.ImporterNames(), ", ")
	tool := fs.String("tool", "", "the tool that printed the output: `TOOL` is one of "+tools)
	src := fs.String("src", "", "the link's src: the host that ran the tool (that sent the data)")
	dst := fs.String("dst", "", "the link's dst: the target")
	probeID := fs.String("probe-id", "import", "probe_id of the samples")
	ts := fs.Int64("ts", 0, "run start in epoch milliseconds, for outputs that carry no time")
	if code, done := fs.Parse(args); done {
		return code
	}
	_, ok := all.Importers[*tool]
	switch {
	case !ok:
		return env.UsageError("--tool: %q is not one of %s", *tool, tools)
	case fs.NArg() != 1:
		return env.UsageError("give one FILE, or - for stdin (got %d)", fs.NArg())
	case *tool != "pscheduler" && (*src == "" || *dst == ""):
		return env.UsageError("--src and --dst are required for %s", *tool)
	case *probeID == "" || len(*probeID) > 200:
		return env.UsageError("--probe-id: 1 to 200 characters")
	}
	for flagName, v := range map[string]string{"--src": *src, "--dst": *dst} {
		if v != "" && !probekit.ValidHost(v) {
			return env.UsageError("%s: %q is not a valid host name (letters, digits and . _ : - ; starting with a letter or digit)", flagName, v)
		}
	}
	m := probekit.Meta{Src: *src, Dst: *dst, ProbeID: *probeID}
	if *ts != 0 {
		if _, err := probekit.CheckEpochMS(*ts); err != nil {
			return env.UsageError("--ts: %v", err)
		}
		m.Start = time.UnixMilli(*ts)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(parseHeapLimit)
	}
	name := fs.Args()[0]
	input, err := readInput(name, env.Stdin)
	if err != nil {
		return env.Fail("%v", err)
	}
	if *tool != "pscheduler" {
		m.RunID = probekit.ImportRunID(*tool, input)
	}
	// Samples are written as they come, through one buffer: a parse error comes before the
	// first one (all.Stream), so malformed input still writes nothing.
	out := bufio.NewWriterSize(env.Stdout, 64<<10)
	var last sample.Sample
	err = all.Stream(*tool, input, m, func(s sample.Sample) error {
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		last = s
		out.Write(b)
		return out.WriteByte('\n')
	})
	if err != nil {
		return env.Fail("%s: %v", name, err)
	}
	if err := out.Flush(); err != nil {
		return env.Fail("%v", err)
	}
	if *ts != 0 && last != nil && last.Head().TS != *ts {
		fmt.Fprintf(env.Stderr, "%s: note: %s carries its own start time; --ts ignored\n", env.Name, name)
	}
	return cli.ExitOK
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		// a file is read into one buffer of its size (os.ReadFile), not one grown by doubling:
		// a 45 MB log would pass through 64 MB and its copies
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() && st.Size() <= maxInput {
			return os.ReadFile(name)
		}
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
