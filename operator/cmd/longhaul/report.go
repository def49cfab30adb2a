package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"longhaul/operator/dashboards"
	"longhaul/operator/results"
)

func init() {
	register("report", "write a self-contained HTML report: the mesh overview and link dashboards' panels as inline SVG", runReport)
}

func runReport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: longhaul report [--since 24h] [--src S --dst D] -o report.html")
		fmt.Fprintln(stderr, "One chart per panel of the Mesh overview and Link detail dashboards, from the same")
		fmt.Fprintln(stderr, "queries (read from the dashboard JSON), for the links with TCP statistics in the range.")
		fs.PrintDefaults()
	}
	flags := addInfluxFlags(fs)
	since := fs.Duration("since", 24*time.Hour, "time range: this long until now")
	out := fs.String("o", "report.html", "output file")
	src := fs.String("src", "", "only this source (with --dst)")
	dst := fs.String("dst", "", "only this destination (with --src)")
	maxLinks := fs.Int("max-links", 8, "at most this many links get a Link detail section")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*src == "") != (*dst == "") || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	now := time.Now().UTC()
	b := &results.Report{C: flags.client(), Range: dashboards.Range{From: now.Add(-*since), To: now}}
	doc, err := b.Build(ctx, flags.dashboardsDir(), *src, *dst, *maxLinks)
	if err != nil {
		fmt.Fprintln(stderr, "longhaul report:", err)
		return 1
	}
	doc.Generated, doc.Source = now, *flags.url+" / "+*flags.db
	f, err := os.Create(*out)
	if err == nil {
		err = doc.Write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "longhaul report:", err)
		return 1
	}
	panels := 0
	for _, s := range doc.Sections {
		panels += len(s.Items)
	}
	fmt.Fprintf(stdout, "wrote %s: %d sections, %d panels\n", *out, len(doc.Sections), panels)
	return 0
}
