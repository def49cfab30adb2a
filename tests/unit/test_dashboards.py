"""Grafana cannot run here, so the dashboards are checked for what Grafana would check and more:
every dashboard validates against Grafana's dashboard model (a JSON Schema generated from
@grafana/grafana-foundation-sdk, see dashboards/schema-tools), every datasource reference resolves
to the provisioned datasource, every variable a query uses is defined, the provider and compose
mount agree. Grafana defines no alerts (the Flink job and the watchdog detect, Alertmanager
notifies): its alerting provisioning only retires what earlier versions provisioned, and the
Alertmanager datasource that shows Alertmanager's alerts and silences takes its address, password
and CA from the environment and mounted files, as the InfluxDB one does. The queries themselves run
against the real InfluxDB in tests/integration/test_dashboard_queries.py."""

import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import pytest
import yaml
from conftest import make_secrets

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ingest"))
from longhaul_contract import CONTRACT  # noqa: E402

DASH = ROOT / "dashboards"
SCHEMA = json.loads((DASH / "schema/dashboard.schema.json").read_text())
FILES = sorted((DASH / "json").glob("*.json"))
BOARDS = {f.name: json.loads(f.read_text()) for f in FILES}
DATASOURCE_FILES = sorted((DASH / "provisioning/datasources").glob("*.yaml"))
DATASOURCES = [d for f in DATASOURCE_FILES for d in yaml.safe_load(f.read_text())["datasources"]]
DS_UIDS = {d["uid"] for d in DATASOURCES}
ALERTMANAGER = next(d for d in DATASOURCES if d["uid"] == "longhaul-alertmanager")
ALERTING_FILES = sorted((DASH / "provisioning/alerting").glob("*.y*ml"))
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
# Grafana's global macros and variables (https://grafana.com/docs/grafana/latest/dashboards/variables/add-template-variables/#global-variables)
BUILTINS = {
    "timeFilter",
    "__interval",
    "__interval_ms",
    "__from",
    "__to",
    "__data",
    "__url_time_range",
    "__field",
    "__series",
    "__value",
    "__dashboard",
    "__org",
    "__user",
    "__range",
    "__rate_interval",
    "tag_protocol",
    "tag_ttl",
    "tag_kind",
    "tag_dst",
    "tag_severity",
    "__url",
    "__timeFilter",
}
EXPECTED = {
    "mesh-overview.json": "longhaul-mesh",
    "link-detail.json": "longhaul-link",
    "paths.json": "longhaul-paths",
    "alerts.json": "longhaul-alerts",
}


def panels(board):
    for p in board.get("panels", []):
        yield p
        yield from p.get("panels", [])


def datasource_refs(board):
    for p in panels(board):
        yield f"panel {p['title']}", p.get("datasource")
        for t in p.get("targets", []):
            yield f"panel {p['title']} {t['refId']}", t.get("datasource")
    for v in board["templating"]["list"]:
        if v["type"] != "custom":  # a custom variable's values are its own: it asks no datasource
            yield f"variable {v['name']}", v.get("datasource")
    for a in board["annotations"]["list"]:
        yield f"annotation {a['name']}", a.get("datasource")


def queries(board):
    for p in panels(board):
        for t in p.get("targets", []):
            yield f"panel {p['title']}", t["query"]
    for v in board["templating"]["list"]:
        if v["type"] == "query":
            yield f"variable {v['name']}", v["query"]
    for a in board["annotations"]["list"]:
        if "target" in a and "query" in a["target"]:
            yield f"annotation {a['name']}", a["target"]["query"]


def test_the_four_dashboards_exist_with_their_fixed_uids():
    assert {name: b["uid"] for name, b in BOARDS.items()} == EXPECTED


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_dashboard_validates_against_grafanas_dashboard_model(name):
    errors = sorted(jsonschema.Draft7Validator(SCHEMA).iter_errors(BOARDS[name]), key=str)
    assert not errors, "\n".join(f"{e.json_path}: {e.message[:300]}" for e in errors[:10])


def test_the_schema_rejects_what_grafana_would_not_load():
    board = json.loads(FILES[0].read_text())
    validator = jsonschema.Draft7Validator(SCHEMA)
    broken = dict(board, templating={"list": [{"name": "x"}]})  # a variable needs a type
    assert not validator.is_valid(broken)
    broken = dict(board, panels=[dict(board["panels"][0], gridPos={"x": 0})])  # gridPos needs h, w, y
    assert not validator.is_valid(broken)
    target = dict(board["panels"][0]["targets"][0], querry="typo")  # unknown target key
    assert not validator.is_valid(dict(board, panels=[dict(board["panels"][0], targets=[target])]))


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_datasource_reference_resolves_to_the_provisioned_datasource(name):
    for where, ref in datasource_refs(BOARDS[name]):
        assert ref is not None, f"{name} {where}: no datasource"
        if ref.get("uid") == "-- Grafana --":
            continue
        assert ref == {"type": "influxdb", "uid": "longhaul-influxdb"}, f"{name} {where}: {ref}"
        assert ref["uid"] in DS_UIDS


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_variable_a_query_uses_is_defined_before_it_is_used(name):
    board = BOARDS[name]
    defined = []
    for v in board["templating"]["list"]:
        for used in re.findall(r"\$\{?(\w+)", v.get("query", "")):
            assert used in defined or used in BUILTINS, (
                f"{name}: variable {v['name']} uses ${used} before it exists"
            )
        defined.append(v["name"])
    for where, query in queries(board):
        for used in re.findall(r"\$\{?(\w+)", query):
            assert used in defined or used in BUILTINS, f"{name} {where}: ${used} is not a variable"


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_panels_have_unique_ids_and_do_not_overlap(name):
    ps = list(panels(BOARDS[name]))
    assert len({p["id"] for p in ps}) == len(ps)
    cells = set()
    for p in ps:
        g = p["gridPos"]
        assert g["x"] + g["w"] <= 24, p["title"]
        mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not cells & mine, f"{name}: {p['title']} overlaps another panel"
        cells |= mine


def test_data_links_point_at_a_dashboard_that_exists():
    uids = set(EXPECTED.values())
    for name, board in BOARDS.items():
        for p in panels(board):
            for link in p["fieldConfig"]["defaults"].get("links", []):
                assert re.match(r"/d/([\w-]+)/", link["url"]).group(1) in uids, f"{name} {p['title']}"


def test_the_committed_json_is_what_build_dashboards_writes(tmp_path):
    subprocess.run(
        [sys.executable, str(DASH / "build_dashboards.py"), "--out", str(tmp_path / "json")], check=True
    )
    for f in FILES:
        assert (tmp_path / "json" / f.name).read_text() == f.read_text(), (
            f"{f.name} differs from dashboards/build_dashboards.py: run it and commit both"
        )


LEARNS = re.compile(r'moving_average\(|"window" = \'baseline\'')


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_panel_says_why_it_is_empty_and_a_learning_one_says_what_it_needs(name):
    """Grafana shows fieldConfig.defaults.noValue instead of "No data". A panel whose query needs
    more history than a short run has (the points of a moving average, the runs of the collapse
    detector's baseline) says it is learning and what it needs; the others say what has
    no samples. `longhaul report` reads the same need from the query (operator/dashboards/needs.go)."""
    for p in panels(BOARDS[name]):
        said = p["fieldConfig"]["defaults"].get("noValue", "")
        assert said, f"{name} {p['title']}: no noValue, Grafana would say only 'No data'"
        query = " ".join(t["query"] for t in p["targets"])
        if LEARNS.search(query):
            assert said.startswith("learning: "), f"{name} {p['title']}: {said!r}"
            for n in re.findall(r"moving_average\(.*?, (\d+)\)", query):
                assert f"needs {n} " in said, (
                    f"{name} {p['title']}: {said!r} does not say it needs {n} points"
                )
            if "'baseline'" in query:
                assert "collapse detector" in said and "min-history" in said, f"{name} {p['title']}: {said!r}"
        else:
            assert said.startswith("no ") and not said.startswith("learning"), (
                f"{name} {p['title']}: {said!r}"
            )


def baseline_targets():
    """Every panel target that reads or names a baseline, by dashboard and panel title."""
    for name, board in BOARDS.items():
        for p in panels(board):
            for t in p.get("targets", []):
                if "baseline" in t["query"]:
                    yield name, p["title"], t["query"]


def test_every_baseline_shown_is_the_collapse_detectors_ready_one():
    """One baseline everywhere: the mesh matrix and the link detail read the baseline the throughput
    collapse detector judges runs against (link_stats window baseline, TCP, once it holds its
    minimum history), never a median of statistics of their own."""
    shown = list(baseline_targets())
    assert {(n, title) for n, title, _ in shown} == {
        ("mesh-overview.json", "Throughput now ÷ baseline (src × dst)"),
        ("link-detail.json", "Collapse detector's baseline (TCP)"),
    }
    for name, title, query in shown:
        assert """"window" = 'baseline' AND "protocol" = 'tcp' AND "baseline_ready" = true""" in query, (
            f"{name} {title}: {query}"
        )
        assert "median(" not in query and '"hourly"' not in query, f"{name} {title}: {query}"
    matrix = next(
        p
        for p in panels(BOARDS["mesh-overview.json"])
        if p["title"] == "Throughput now ÷ baseline (src × dst)"
    )
    divide = next(t for t in matrix["transformations"] if t["id"] == "calculateField")["options"]["binary"]
    assert (divide["left"], divide["operator"], divide["right"]) == ("current", "/", "baseline")


def test_the_provider_reads_the_folder_compose_mounts():
    provider = yaml.safe_load((DASH / "provisioning/dashboards/longhaul.yaml").read_text())["providers"][0]
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["grafana"]
    # a variable's default is what compose mounts without it (${VAR:-default})
    mounts = dict(re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", v).split(":")[:2] for v in compose["volumes"])
    assert mounts["./dashboards/json"] == provider["options"]["path"]
    assert mounts["./dashboards/provisioning"] == "/etc/grafana/provisioning"


def kinds_selected(query):
    """The contract's event kinds a query selects with "kind" = 'x' or "kind" =~ /regex/."""
    named = re.findall(r"\"kind\"\s*=\s*'([^']*)'", query)
    unknown = [k for k in named if k not in CONTRACT.kinds]
    assert not unknown, f"{unknown} are no event kinds of ingest/contract.yaml: {query}"
    patterns = re.findall(r'"kind"\s*=~\s*/(.*?)/', query)
    return set(named) | {k for p in patterns for k in CONTRACT.kinds if re.search(p, k)}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_event_kind_a_dashboard_names_is_a_contract_kind(name):
    for _, query in queries(BOARDS[name]):
        kinds_selected(query)


# --- alerts: none defined here; the Alertmanager datasource shows Alertmanager's ----------------

# what a Grafana alerting provisioning file may hold when it only removes
RETIRING = {"apiVersion", "deleteRules", "deleteContactPoints", "resetPolicies"}


@pytest.mark.parametrize("path", ALERTING_FILES, ids=lambda p: p.name)
def test_grafana_provisions_no_alert_rule_contact_point_or_policy(path):
    """Alerts are defined once: detection in the Flink job and the watchdog (events of
    ingest/contract.yaml), notification in Alertmanager (alerting/). Grafana's alerting
    provisioning may only delete what earlier versions provisioned."""
    doc = yaml.safe_load(path.read_text()) or {}
    assert set(doc) <= RETIRING, (
        f"{path.name} provisions {sorted(set(doc) - RETIRING)}: Grafana defines no alerts"
    )


def test_the_alerts_grafana_once_provisioned_are_retired():
    """Grafana keeps file-provisioned rules, contact points and policies after their file is gone,
    so an upgraded Grafana would go on alerting on its own unless they are deleted."""
    docs = [yaml.safe_load(f.read_text()) or {} for f in ALERTING_FILES]
    deleted = {r["uid"] for d in docs for r in d.get("deleteRules", []) if r["orgId"] == 1}
    assert deleted == {
        "longhaul-throughput-collapse",
        "longhaul-unreachable",
        "longhaul-high-loss",
        "longhaul-no-data",
    }
    assert {c["uid"] for d in docs for c in d.get("deleteContactPoints", [])} == {"longhaul-webhook"}
    assert any(1 in d.get("resetPolicies", []) for d in docs), (
        "the policy tree still routes to the deleted contact point"
    )


def test_the_alertmanager_datasource_shows_alertmanagers_alerts_and_sends_none():
    ds = ALERTMANAGER
    assert ds["type"] == "alertmanager" and ds["access"] == "proxy"
    assert ds["jsonData"]["implementation"] == "prometheus"
    assert ds["jsonData"]["handleGrafanaManagedAlerts"] is False
    assert ds["editable"] is False and not ds.get("isDefault")
    assert [d["uid"] for d in DATASOURCES if d.get("isDefault")] == ["longhaul-influxdb"], (
        "the dashboards' default"
    )


def test_the_alertmanager_datasource_authenticates_over_https_with_the_stacks_ca():
    ds, env = ALERTMANAGER, COMPOSE["grafana"]["environment"]
    assert ds["url"] == "$LONGHAUL_GRAFANA_ALERTMANAGER_URL"
    assert env["LONGHAUL_GRAFANA_ALERTMANAGER_URL"] == "https://alertmanager:9093"
    assert ds["basicAuth"] is True and ds["basicAuthUser"] == "grafana"
    assert (
        ds["secureJsonData"]["basicAuthPassword"]
        == "$__file{/run/secrets/longhaul/alertmanager-grafana.password}"
    )
    assert ds["jsonData"]["tlsAuthWithCACert"] is True
    influx = next(d for d in DATASOURCES if d["uid"] == "longhaul-influxdb")
    assert (
        ds["secureJsonData"]["tlsCACert"]
        == influx["secureJsonData"]["tlsCACert"]
        == "$__file{/etc/longhaul/ca.crt}"
    )
    mounts = dict(v.split(":")[:2] for v in COMPOSE["grafana"]["volumes"])
    assert mounts["./secrets/ca.crt"] == "/etc/longhaul/ca.crt"
    assert mounts["./secrets/grafana"] == "/run/secrets/longhaul"


def test_grafana_gets_its_alertmanager_password_from_the_secrets_service(cli, tmp_path):
    """scripts/secrets.sh makes alertmanager-grafana.password and copies it into grafana/, the
    folder compose mounts at /run/secrets/longhaul."""
    make_secrets(cli, tmp_path)
    made = tmp_path / "alertmanager-grafana.password"
    assert (tmp_path / "grafana" / made.name).read_bytes() == made.read_bytes()
    assert len(made.read_bytes()) == 32


def references(value):
    """The environment variables ($VAR, ${VAR}, $__env{VAR}) and files ($__file{PATH}) a
    provisioning value names."""
    env = re.findall(r"\$(?:__env\{|\{)?([A-Z_][A-Z0-9_]*)\}?", value.replace("$__file{", "{"))
    files = re.findall(r"\$__file\{([^}]+)\}", value)
    return env, files


def leaves(tree, path=""):
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, tree


SECRETISH = re.compile(r"password|secret|token|key|cert", re.I)


@pytest.mark.parametrize("path", DATASOURCE_FILES, ids=lambda p: p.name)
def test_no_secret_is_written_in_a_datasource_file(path):
    """Every secret is a mounted file ($__file{/run/secrets/longhaul/...} or the CA), never a
    literal; every variable a datasource names is set in compose's grafana environment."""
    env = COMPOSE["grafana"]["environment"]
    for ds in yaml.safe_load(path.read_text())["datasources"]:
        for key in ds.get("secureJsonData", {}):
            assert SECRETISH.search(key), (
                f"{path.name} {ds['uid']}: {key} is not a secret, keep it out of secureJsonData"
            )
        for where, value in leaves(ds):
            if not isinstance(value, str) or not SECRETISH.search(where):
                continue
            assert re.fullmatch(r"\$__file\{/(run/secrets/longhaul|etc/longhaul)/[\w.-]+\}", value), (
                f"{path.name} {ds['uid']} {where}: {value!r} is not a mounted file"
            )
        for where, value in leaves(ds):
            if isinstance(value, str):
                names, _ = references(value)
                for name in names:
                    assert name in env, (
                        f"{path.name} {ds['uid']} {where}: ${name} is not in compose's grafana environment"
                    )
    for name in env:
        assert not SECRETISH.search(name) or name.endswith("__FILE"), f"grafana's environment holds {name}"
