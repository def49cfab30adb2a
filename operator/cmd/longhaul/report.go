package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"longhaul/internal/cli"
	"longhaul/operator/dashboards"
	"longhaul/operator/render"
	"longhaul/operator/results"
)

const reportDoc = `One chart per panel of the Mesh overview and Link detail dashboards, from the same
queries (read from the dashboard JSON), for the links with TCP statistics in the range;
with --site, the links from or to those sites only (the Mesh overview's site variable;
a mesh's hosts give the mesh's links and their other links); with --mesh, the sites are
the addresses of that group of the pSConfig template --psconfig; with --src and --dst,
that link's section, and the overview of the links from or to its two ends.`

func runReport(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--since 24h] [--site S[,S…] | --mesh GROUP --psconfig T | --src S --dst D] -o report.html", reportDoc)
	flags := addInfluxFlags(fs.FlagSet)
	since := fs.Duration("since", 24*time.Hour, "time range: this long until now")
	out := fs.String("o", "report.html", "output file")
	src := fs.String("src", "", "only this source (with --dst)")
	dst := fs.String("dst", "", "only this destination (with --src)")
	site := fs.String("site", "", "only the links whose source or destination is one of these sites (comma-separated)")
	mesh := fs.String("mesh", "", "only the links of this group's addresses (a mesh) of the template --psconfig")
	template := fs.String("psconfig", "", "the pSConfig template of --mesh: a path, a file:// or an https:// URL")
	maxLinks := fs.Int("max-links", 8, "at most this many links get a Link detail section")
	if code, done := fs.Parse(args); done {
		return code
	}
	if (*src == "") != (*dst == "") {
		return env.UsageError("--src and --dst go together")
	}
	if (*mesh == "") != (*template == "") {
		return env.UsageError("--mesh and --psconfig go together")
	}
	if scopes := btoi(*site != "") + btoi(*mesh != "") + btoi(*src != ""); scopes > 1 {
		return env.UsageError("--site, --mesh and --src/--dst are scopes: give one")
	}
	sites, err := siteList(*site)
	if err != nil {
		return env.UsageError("--site: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if *mesh != "" {
		if sites, err = meshSites(ctx, *template, *mesh); err != nil {
			return env.Fail("--mesh: %v", err)
		}
	}
	if *src != "" {
		// a link's report: its overview is its ends' links, not a fleet's matrices of thousands
		sites = []string{*src, *dst}
	}
	now := time.Now().UTC()
	c, err := flags.client()
	if err != nil {
		return env.UsageError("%v", err)
	}
	b := &results.Report{C: c, Range: dashboards.Range{From: now.Add(-*since), To: now}, Sites: sites}
	doc, err := b.Build(ctx, flags.dashboardsDir(), *src, *dst, *maxLinks)
	if err != nil {
		return env.Fail("%v", err)
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
		return env.Fail("%v", err)
	}
	panels := 0
	for _, s := range doc.Sections {
		panels += len(s.Items)
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %d sections, %d panels\n", *out, len(doc.Sections), panels)
	render.WriteStates(env.Stdout, doc)
	return cli.ExitOK
}

// meshSites are the sites of --mesh: the addresses of group in the template at loc (its
// includes followed as the agent follows them).
func meshSites(ctx context.Context, loc, group string) ([]string, error) {
	t, err := readTemplate(ctx, loc)
	if err != nil {
		return nil, err
	}
	meshes, err := templateMeshes(t, []string{group})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", loc, err)
	}
	return meshes[0].Addresses, nil
}

// siteList reads --site's comma-separated site names ("" is every site).
func siteList(v string) ([]string, error) {
	if v == "" {
		return nil, nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, fmt.Errorf("an empty site name in %q", v)
		}
		out = append(out, s)
	}
	return out, nil
}
