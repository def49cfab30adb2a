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


def mesh_overview(tmp, group, hosts):
    """The Mesh overview as `longhaul dashboards meshes` writes it from a pSConfig template of one
    mesh, `group` of `hosts` (both written under the folder `tmp`): (the template's path, the
    dashboard, the mesh variable's value for that group)."""
    tmp = pathlib.Path(tmp)
    template = tmp / "template.json"
    test = {"type": "rtt", "spec": {"source": "{% address[0] %}", "dest": "{% address[1] %}"}}
    template.write_text(
        json.dumps(
            {
                "addresses": {h: {"address": h} for h in hosts},
                "groups": {group: {"type": "mesh", "addresses": [{"name": h} for h in hosts]}},
                "tests": {"rtt": test},
                "tasks": {f"{group}-rtt": {"group": group, "test": "rtt"}},
            }
        )
    )
    out = tmp / "boards"
    r = subprocess.run(
        [str(CLI), "dashboards", "meshes", "--psconfig", str(template), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, f"longhaul dashboards meshes: {r.stderr.strip()}"
    board = json.loads((out / "mesh-overview.json").read_text())
    var = next(v for v in board["templating"]["list"] if v["name"] == "mesh")
    return template, board, next(o["value"] for o in var["options"] if o["text"] == group)
