package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	dashfiles "longhaul/dashboards"
	"longhaul/internal/cli"
	"longhaul/operator/dashboards"
	"longhaul/perfsonar/psconfig"
)

const dashboardsMeshesDoc = `Writes the dashboards the binary carries into DIR (Grafana's provisioned folder, or a copy
for it), with the mesh variable of the Mesh overview and Alerts offering each group of the
pSConfig TEMPLATE: its addresses stand for it (its links, and those hosts' other links),
as with 'longhaul report --mesh'. Run it again when the template's groups change; Grafana
reads the folder again by itself.`

func runDashboardsMeshes(env *cli.Env, args []string) int {
	fs := env.FlagSet("--psconfig TEMPLATE --out DIR [--group G]...", dashboardsMeshesDoc)
	template := fs.String("psconfig", "", "the pSConfig template: a path, a file:// or an https:// URL")
	out := fs.String("out", "", "the folder to write the dashboards into (made if missing)")
	var only groupFlags
	fs.Var(&only, "group", "only this group (repeatable; default: every group with an address that runs a test)")
	if code, done := fs.Parse(args); done {
		return code
	}
	if *template == "" || *out == "" || fs.NArg() != 0 {
		return env.UsageError("give --psconfig and --out, and no argument")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t, err := readTemplate(ctx, *template)
	if err != nil {
		return env.Fail("--psconfig: %v", err)
	}
	meshes, err := templateMeshes(t, only)
	if err != nil {
		return env.Fail("--psconfig %s: %v", *template, err)
	}
	for _, m := range meshes {
		fmt.Fprintf(env.Stdout, "mesh %q: %d addresses\n", m.Name, len(m.Addresses))
	}
	n, err := writeMeshDashboards(dashfiles.JSON(), *out, meshes)
	if err != nil {
		return env.Fail("%v", err)
	}
	fmt.Fprintf(env.Stdout, "wrote %d dashboards into %s, %d with the mesh variable\n", n.all, *out, n.meshed)
	return cli.ExitOK
}

// readTemplate reads the pSConfig template at loc (a path, a file:// or an https:// URL), its
// includes followed as the agent follows them.
func readTemplate(ctx context.Context, loc string) (*psconfig.Template, error) {
	t, _, err := psconfig.NewSource(loc, psconfig.Options{UserAgent: "longhaul"}).Refresh(ctx)
	return t, err
}

// templateMeshes are the meshes of the template: the groups named (each must have addresses), or
// every group with an address that runs a test, sorted by name.
func templateMeshes(t *psconfig.Template, only []string) ([]dashboards.Mesh, error) {
	names, explicit := only, len(only) > 0
	if !explicit {
		for g := range t.Groups {
			names = append(names, g)
		}
		sort.Strings(names)
	}
	var out []dashboards.Mesh
	for _, g := range names {
		addrs, err := t.GroupAddresses(g)
		if err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			if explicit {
				return nil, fmt.Errorf("group %q has no address that runs a test", g)
			}
			continue
		}
		out = append(out, dashboards.Mesh{Name: g, Addresses: addrs})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no group with an address that runs a test")
	}
	return out, nil
}

// groupFlags collects repeated --group NAME (a group's name may hold spaces and commas).
type groupFlags []string

func (g *groupFlags) String() string { return fmt.Sprint([]string(*g)) }

func (g *groupFlags) Set(s string) error {
	if s == "" {
		return fmt.Errorf("an empty group name")
	}
	*g = append(*g, s)
	return nil
}

type written struct{ all, meshed int }

// writeMeshDashboards writes every dashboard of src into dir, those with a mesh variable offering
// meshes; each file whole (writeWhole), so Grafana never reads half of one.
func writeMeshDashboards(src fs.FS, dir string, meshes []dashboards.Mesh) (written, error) {
	var n written
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return n, err
	}
	files, err := fs.Glob(src, "*.json")
	if err != nil {
		return n, err
	}
	for _, name := range files {
		b, err := fs.ReadFile(src, name)
		if err != nil {
			return n, err
		}
		b, meshed, err := dashboards.WithMeshes(b, meshes)
		if err != nil {
			return n, fmt.Errorf("%s: %w", name, err)
		}
		if err := writeWhole(filepath.Join(dir, name), b, 0o644); err != nil {
			return n, err
		}
		n.all++
		if meshed {
			n.meshed++
		}
	}
	return n, nil
}
