"""Grafana cannot run here, so the dashboards are checked for what Grafana would check and more:
every dashboard validates against Grafana's dashboard model (a JSON Schema generated from
@grafana/grafana-foundation-sdk, see dashboards/schema-tools), every datasource reference resolves
to the provisioned datasource, every variable a query uses is defined, the provider and compose
mount agree, and the alert rules are well formed. The queries themselves run against the real
InfluxDB in tests/integration/test_dashboard_queries.py."""
import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ingest"))
from longhaul_contract import CONTRACT  # noqa: E402
DASH = ROOT / "dashboards"
SCHEMA = json.loads((DASH / "schema/dashboard.schema.json").read_text())
FILES = sorted((DASH / "json").glob("*.json"))
BOARDS = {f.name: json.loads(f.read_text()) for f in FILES}
DATASOURCES = yaml.safe_load((DASH / "provisioning/datasources/influxdb.yaml").read_text())["datasources"]
DS_UIDS = {d["uid"] for d in DATASOURCES}
ALERTING = yaml.safe_load((DASH / "provisioning/alerting/longhaul.yaml").read_text())
# Grafana's global macros and variables (https://grafana.com/docs/grafana/latest/dashboards/variables/add-template-variables/#global-variables)
BUILTINS = {"timeFilter", "__interval", "__interval_ms", "__from", "__to", "__data", "__url_time_range",
            "__field", "__series", "__value", "__dashboard", "__org", "__user", "__range", "__rate_interval",
            "tag_protocol", "tag_ttl", "tag_kind", "tag_dst", "tag_severity", "__url", "__timeFilter"}
EXPECTED = {"mesh-overview.json": "longhaul-mesh", "link-detail.json": "longhaul-link",
            "paths.json": "longhaul-paths", "alerts.json": "longhaul-alerts"}


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
    broken = dict(board, templating={"list": [{"name": "x"}]})            # a variable needs a type
    assert not validator.is_valid(broken)
    broken = dict(board, panels=[dict(board["panels"][0], gridPos={"x": 0})])  # gridPos needs h, w, y
    assert not validator.is_valid(broken)
    target = dict(board["panels"][0]["targets"][0], querry="typo")          # unknown target key
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
            assert used in defined or used in BUILTINS, f"{name}: variable {v['name']} uses ${used} before it exists"
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
    code = (DASH / "build_dashboards.py").read_text()
    ns = {"__name__": "build", "__file__": str(tmp_path / "build_dashboards.py")}
    exec(compile(code, "build_dashboards.py", "exec"), ns)
    ns["main"]()
    for f in FILES:
        assert (tmp_path / "json" / f.name).read_text() == f.read_text(), \
            f"{f.name} differs from dashboards/build_dashboards.py: run it and commit both"


def test_the_provider_reads_the_folder_compose_mounts():
    provider = yaml.safe_load((DASH / "provisioning/dashboards/longhaul.yaml").read_text())["providers"][0]
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["grafana"]
    mounts = dict(v.split(":")[:2] for v in compose["volumes"])
    assert mounts["./dashboards/json"] == provider["options"]["path"]
    assert mounts["./dashboards/provisioning"] == "/etc/grafana/provisioning"


RULES = ALERTING["groups"][0]["rules"]


def test_alert_rules_cover_collapse_unreachable_loss_and_no_data():
    assert {r["uid"] for r in RULES} == {"longhaul-throughput-collapse", "longhaul-unreachable",
                                         "longhaul-high-loss", "longhaul-no-data"}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r["uid"])
def test_alert_rule_is_well_formed(rule):
    refs = {d["refId"] for d in rule["data"]}
    assert rule["condition"] in refs
    assert rule["noDataState"] in {"OK", "NoData", "Alerting"} and rule["execErrState"] in {"OK", "Error", "Alerting"}
    assert rule["annotations"]["__dashboardUid__"] in EXPECTED.values()
    for d in rule["data"]:
        assert d["model"]["refId"] == d["refId"]
        if d["datasourceUid"] == "__expr__":
            assert d["model"]["type"] in {"reduce", "threshold", "math"}
            assert d["model"]["expression"] in refs - {d["refId"]}
        else:
            assert d["datasourceUid"] in DS_UIDS
            assert d["model"]["rawQuery"] is True and "$timeFilter" in d["model"]["query"]
            assert d["relativeTimeRange"]["from"] > d["relativeTimeRange"]["to"] == 0


def kinds_selected(query):
    """The contract's event kinds a query selects with "kind" = 'x' or "kind" =~ /regex/."""
    named = re.findall(r"\"kind\"\s*=\s*'([^']*)'", query)
    unknown = [k for k in named if k not in CONTRACT.kinds]
    assert not unknown, f"{unknown} are no event kinds of ingest/contract.yaml: {query}"
    patterns = re.findall(r'"kind"\s*=~\s*/(.*?)/', query)
    return set(named) | {k for p in patterns for k in CONTRACT.kinds if re.search(p, k)}


def test_the_high_loss_rule_fires_at_the_contracts_loss_alarm():
    rule = next(r for r in RULES if r["uid"] == "longhaul-high-loss")
    alarm = CONTRACT.threshold("loss_alarm_percent")
    threshold = next(d["model"] for d in rule["data"] if d["model"].get("type") == "threshold")
    assert threshold["conditions"][0]["evaluator"]["params"] == [alarm], \
        "the High loss rule's threshold is not loss_alarm_percent of ingest/contract.yaml"
    assert f"loss above {alarm:g} %" in rule["annotations"]["summary"]


@pytest.mark.parametrize("rule", [r for r in RULES if '"events"' in r["data"][0]["model"]["query"]], ids=lambda r: r["uid"])
def test_alert_rules_on_events_select_alert_kinds_of_the_contract(rule):
    kinds = kinds_selected(rule["data"][0]["model"]["query"])
    assert kinds, "selects no event kind of ingest/contract.yaml"
    assert all(CONTRACT.kinds[k].role == "alert" for k in kinds), kinds


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_event_kind_a_dashboard_names_is_a_contract_kind(name):
    for _, query in queries(BOARDS[name]):
        kinds_selected(query)


def test_the_contact_point_comes_from_the_environment_and_the_policy_uses_it():
    cp = ALERTING["contactPoints"][0]
    assert cp["receivers"][0]["settings"]["url"] == "${LONGHAUL_ALERT_WEBHOOK_URL}"
    assert ALERTING["policies"][0]["receiver"] == cp["name"]
    env = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["grafana"]["environment"]
    assert "LONGHAUL_ALERT_WEBHOOK_URL" in env
