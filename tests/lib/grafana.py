"""Grafana's InfluxQL interpolation ($timeFilter, $__interval, variables regex-escaped inside /…/,
several values as an alternation) by `longhaul dashboards expand`: the one expander, the one the
CLI's alerts and report run, for the tests and the benchmarks that run a panel's query."""

import json
import pathlib
import subprocess

CLI = pathlib.Path(__file__).resolve().parents[2] / "bin" / "longhaul"
ALL = ".*"  # a regex variable's all-value (Grafana's allValue; operator/dashboards.AllValue)


def expand(query, frm, to, variables):
    """query with the range [frm, to] (epoch ms) and variables (name → value) expanded."""
    args = [str(CLI), "dashboards", "expand", "--from", str(frm), "--to", str(to)]
    for name, value in variables.items():
        args += ["--var", f"{name}={value}"]
    r = subprocess.run([*args, query], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, f"longhaul dashboards expand: {r.stderr.strip()}"
    return r.stdout.rstrip("\n")


def meshes(template, out, *groups):
    """The dashboards written into `out` by `longhaul dashboards meshes`, with the pSConfig
    template's groups (or those given) as the mesh variable: {file stem: dashboard}."""
    args = [str(CLI), "dashboards", "meshes", "--psconfig", str(template), "--out", str(out)]
    for g in groups:
        args += ["--group", g]
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"longhaul dashboards meshes: {r.stderr.strip()}"
    return {f.stem: json.loads(f.read_text()) for f in sorted(pathlib.Path(out).glob("*.json"))}
