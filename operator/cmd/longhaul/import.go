package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"longhaul/internal/kafkaadmin"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/schema"
	"longhaul/internal/cli"
	"longhaul/internal/settings"
	"longhaul/operator/backfill"
	"longhaul/perfsonar/psbridge"
	"longhaul/probes/all"
)

const importDoc = `Backfills history so that links have baselines on day one.

  longhaul import archive FILE...    an exported perfSONAR archive: one archived pScheduler
                                     result a line (what its archivers send)
  longhaul import outputs --tool TOOL --src SRC --dst DST --probe-id ID PATH...
                                     saved outputs of one tool for one link (files, or folders
                                     walked); outputs with no time of their own are dated by
                                     their file's modification time

Each run becomes samples (the parsers of longhaul-probe parse) published to the history topics,
which only the importer may write: the Flink job learns throughput baselines from them without
judging them, and gives them no place in event time, so they are neither dropped as late nor
make live samples late; traces go to InfluxDB. Pings, one-way delay and host snapshots are not
imported (their baselines learn live within the hour). A link's throughput runs go newest
first. A run imported before (the --seen file) or twice is a duplicate and adds nothing. Prints a
progress bar and the counts of accepted, duplicate and rejected records; exits 1 when any was
rejected or not acknowledged.
Kafka as the importer user (kafka-importer.password of the secrets folder, or LONGHAUL_KAFKA_USER).`

func runImport(env *cli.Env, args []string) int {
	fs := env.FlagSet("archive FILE... | outputs --tool TOOL --src SRC --dst DST --probe-id ID PATH...", importDoc)
	fs.ArgsUsage = "archive|outputs PATH..."
	kafka := settings.Kafka.String(fs.FlagSet)
	schemas := fs.String("schemas", "", "folder of *.schema.json the samples are checked against (default: the schemas this binary carries)")
	seenFile := fs.String("seen", defaultSeenFile(), "the runs imported before (duplicates add nothing)")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up waiting for Kafka after this long")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	tool := fs.String("tool", "", "outputs: the tool that printed them, one of longhaul-probe parse's")
	src := fs.String("src", "", "outputs: the link's src (the host that ran the tool)")
	dst := fs.String("dst", "", "outputs: the link's dst")
	probeID := fs.String("probe-id", "", "outputs: the probe_id of the live probe whose baseline they seed")
	if code, done := fs.Parse(args); done { // flags anywhere: import archive --json FILE
		return code
	}
	if fs.NArg() == 0 || (fs.Args()[0] != "archive" && fs.Args()[0] != "outputs") {
		return env.UsageError("what to import: archive or outputs")
	}
	kind, paths := fs.Args()[0], fs.Args()[1:]
	if len(paths) == 0 {
		return env.UsageError("give at least one PATH")
	}
	out := backfill.Outputs{Tool: *tool, Src: *src, Dst: *dst, ProbeID: *probeID}
	if kind == "outputs" {
		if _, ok := all.Importers[*tool]; !ok {
			return env.UsageError("--tool: %q is not one of %v", *tool, all.ImporterNames())
		}
		if *probeID == "" || (*tool != "pscheduler" && (*src == "" || *dst == "")) {
			return env.UsageError("--probe-id, --src and --dst are required for outputs (--src/--dst may come from a pscheduler result)")
		}
	}
	reg, err := schema.Open(*schemas)
	if err != nil {
		return env.Fail("%v", err)
	}
	seen, err := psbridge.OpenSeen(*seenFile, 10_000_000)
	if err != nil {
		return env.Fail("%v", err)
	}
	defer seen.Close()
	conn, err := serviceConn(*kafka, kafkaadmin.Importer)
	if err != nil {
		return env.Fail("%v", err)
	}
	cl, err := conn.NewClient(kgo.ProducerLinger(20*time.Millisecond), kgo.RecordDeliveryTimeout(*timeout))
	if err != nil {
		return env.Fail("%v", err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	im := backfill.NewImporter(cl, reg, seen, nil)
	if err := feed(ctx, env, kind, out, paths, im); err != nil {
		return env.Fail("%v", err)
	}
	rep, ferr := im.Finish(ctx)
	printReport(env, rep, *asJSON)
	if ferr != nil {
		return env.Fail("kafka: %v", ferr)
	}
	if rep.Rejected > 0 || rep.Failed > 0 {
		return cli.ExitFailure
	}
	return cli.ExitOK
}

// feed reads every path into the importer, drawing the progress.
func feed(ctx context.Context, env *cli.Env, kind string, out backfill.Outputs, paths []string, im *backfill.Importer) error {
	add := func(it backfill.Item) { im.Add(ctx, it) }
	if kind == "outputs" {
		files, err := backfill.Files(paths)
		if err != nil {
			return err
		}
		p := backfill.NewProgress(env.Stderr, isTerminal(env.Stderr), int64(len(files)), "files")
		for i, f := range files {
			add(out.Read(f))
			p.Update(int64(i+1), im.Report())
		}
		p.Done()
		return nil
	}
	var total int64
	for _, name := range paths {
		if st, err := os.Stat(name); err == nil {
			total += st.Size()
		}
	}
	p := backfill.NewProgress(env.Stderr, isTerminal(env.Stderr), total, "bytes")
	var before int64
	for _, name := range paths {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = backfill.Archive(name, f, add, func(n int64) { p.Update(before+n, im.Report()) })
		st, _ := f.Stat()
		f.Close()
		if err != nil {
			return err
		}
		if st != nil {
			before += st.Size()
		}
	}
	p.Done()
	return nil
}

func printReport(env *cli.Env, r backfill.Report, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(r)
		fmt.Fprintln(env.Stdout, string(b))
		return
	}
	fmt.Fprintf(env.Stdout, "%d records: %d accepted (%d samples), %d duplicate, %d rejected, %d not acknowledged by Kafka",
		r.Records, r.Accepted, r.Samples, r.Duplicates, r.Rejected, r.Failed)
	if r.Unused > 0 {
		fmt.Fprintf(env.Stdout, "; %d not imported: pings, one-way delay and host snapshots learn their baselines live", r.Unused)
	}
	fmt.Fprintln(env.Stdout)
	for _, p := range r.Problems {
		fmt.Fprintln(env.Stdout, "  "+p)
	}
}

// defaultSeenFile is $XDG_STATE_HOME/longhaul/import-seen.log (~/.local/state/...).
func defaultSeenFile() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "longhaul", "import-seen.log")
}

// isTerminal says whether w is a terminal (a character device), to redraw the bar in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
