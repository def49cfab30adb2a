"""Every query Grafana would run, run against the real InfluxDB after an end-to-end run: each
dashboard's variable queries, panel targets and annotation queries, with Grafana's macros expanded
the way Grafana expands them ($timeFilter, $__interval, $var in '…' and in /^…$/), must return
data. (Grafana runs no alert queries: alerts are the Flink job's and the watchdog's events, sent
through Alertmanager.)"""

import json
import pathlib
import re

import pytest
from conftest import influx_query, now_ms
from grafana import ALL, expand, mesh_overview

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOARDS = {f.stem: json.loads(f.read_text()) for f in sorted((ROOT / "dashboards/json").glob("*.json"))}
UNITS = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def relative_ms(expr):
    m = re.fullmatch(r"now-(\d+)([smhd])", expr)
    return int(m.group(1)) * UNITS[m.group(2)]


def values(series):
    return [v for s in series for v in s["values"]]


def chosen(mesh_run, board):
    """The values a person would pick in the variable drop-downs: the story's links. The site:
    in the Mesh overview the story's source (its links have throughput, a ready baseline, loss and
    events), in Alerts the site its loss alarms name."""
    site = mesh_run["src"] if board["uid"] == "longhaul-mesh" else mesh_run["triumf"]
    return {"src": mesh_run["src"], "dst": mesh_run["fnal"], "site": site, "mesh": ALL}


def dashboard_queries(board):
    for p in board["panels"]:
        for t in p["targets"]:
            yield f"{p['title']} [{t['refId']}]", t["query"]
    for a in board["annotations"]["list"]:
        if "target" in a:
            yield f"annotation {a['name']}", a["target"]["query"]


CASES = [
    pytest.param(name, where, q, id=f"{name}: {where}")
    for name, board in BOARDS.items()
    for where, q in dashboard_queries(board)
]


def resolve_variables(board, mesh_run, frm, to):
    """Run each variable's query in order, as Grafana does, and check the chosen value is offered."""
    resolved = {}
    for v in board["templating"]["list"]:
        if v["type"] == "custom":  # its options are its own
            offered = [o["value"] for o in v["options"]]
        else:
            offered = [row[-1] for row in values(influx_query(expand(v["query"], frm, to, resolved)))]
        want = chosen(mesh_run, board)[v["name"]]
        assert want in offered, f"variable {v['name']}: {want} not among {offered[:20]}"
        resolved[v["name"]] = want
    return resolved


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_variable_query_offers_the_runs_links(mesh_run, name):
    to = now_ms()
    resolve_variables(BOARDS[name], mesh_run, to - relative_ms(BOARDS[name]["time"]["from"]), to)


@pytest.mark.parametrize("name,where,query", CASES)
def test_every_panel_and_annotation_query_returns_data(mesh_run, name, where, query):
    board = BOARDS[name]
    to = now_ms()
    frm = to - relative_ms(board["time"]["from"])
    variables = resolve_variables(board, mesh_run, frm, to)
    q = expand(query, frm, to, variables)
    series = influx_query(q)
    assert values(series), f"{name} / {where}: no data for {q}"
    if "$src" in query or "$site" in query:
        return
    # mesh-wide queries: the story's own links must be among the rows
    assert any(mesh_run["tag"] in json.dumps(s.get("tags", {})) + json.dumps(s["values"]) for s in series), q


def test_a_meshs_view_shows_its_hosts_links_and_no_other(mesh_run, tmp_path):
    """The Mesh overview with the mesh variable `longhaul dashboards meshes` writes from a pSConfig
    template: choosing the group of the story's source and FNAL, every panel shows their links, and
    no row of a link that has neither (the story's TRIUMF → KEK, say)."""
    src, fnal = mesh_run["src"], mesh_run["fnal"]
    _, board, story = mesh_overview(tmp_path, "story", [src, fnal])
    to = now_ms()
    frm = to - relative_ms(board["time"]["from"])
    shown = 0
    for where, query in dashboard_queries(board):
        if "${mesh:raw}" not in query:
            continue
        series = influx_query(expand(query, frm, to, {"mesh": story, "site": ALL}))
        assert values(series), f"{where}: nothing for the mesh"
        for s in series:
            ends = {s.get("tags", {}).get(k) for k in ("src", "dst")} - {None}
            assert not ends or ends & {src, fnal}, f"{where}: a row of {ends}, outside the mesh"
        shown += 1
    assert shown >= 4, shown
