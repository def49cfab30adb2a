"""ingest/contract.yaml against what else names the same things: the event schemas' kinds and
Telegraf's topics. (Go and Java are generated from the contract and checked by ingest/gen and
flink-jobs ContractNamesTest; the kinds dashboards name by tests/unit/test_dashboards.py.)"""

import json
import pathlib
import re
import shutil
import sys

import pytest

INGEST = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(INGEST))
import longhaul_contract  # noqa: E402
from longhaul_contract import CONTRACT, telegraf_groups  # noqa: E402


def test_kinds_are_the_event_schemas_enum_in_order():
    """The newest event schema's kinds are the contract's; an older one's are where they started."""
    newest = CONTRACT.schema("events")
    for f in sorted((INGEST / "schemas").glob("event.v*.schema.json")):
        enum = json.loads(f.read_text())["properties"]["kind"]["enum"]
        if f.name == f"{newest}.schema.json":
            assert list(CONTRACT.kinds) == enum
        assert list(CONTRACT.kinds)[: len(enum)] == enum, f.name


def test_every_alert_has_its_recovery_and_info_kinds_close_nothing():
    assert CONTRACT.recovery_of("high_loss") == "loss_recovery"
    assert set(CONTRACT.alerts()) == {
        "throughput_collapse",
        "unreachable",
        "site_unreachable",
        "high_loss",
        "high_jitter",
        "no_data",
        "pipeline_degraded",
        "incident_opened",
    }
    assert all(k.closes is None for k in CONTRACT.kinds.values() if k.role == "info")
    assert {k.name: k.updates for k in CONTRACT.kinds.values() if k.role == "update"} == {
        "incident_updated": "incident_opened"
    }


def test_every_topic_has_a_role_and_raw_topics_are_the_probes():
    assert CONTRACT.topic("events") == "longhaul.events"
    assert CONTRACT.raw_topics() == [
        "longhaul.raw.throughput",
        "longhaul.raw.path",
        "longhaul.raw.rtt",
        "longhaul.raw.latency",
        "longhaul.raw.host",
    ]
    assert CONTRACT.history_topics() == ["longhaul.history.throughput", "longhaul.history.path"]


def test_telegraf_reads_contract_topics():
    conf = (INGEST / "telegraf/telegraf.conf").read_text()
    read = {
        t
        for line in re.findall(r"^\s*topics\s*=\s*\[(.*)\]", conf, re.M)
        for t in re.findall(r'"([^"]+)"', line)
    }
    assert read == {
        CONTRACT.topic("stats"),
        CONTRACT.topic("events"),
        CONTRACT.topic("paths"),
        CONTRACT.topic("history.path"),
    }


def test_telegraf_groups_are_read_from_its_config():
    assert telegraf_groups() == {
        "longhaul-telegraf-stats": [CONTRACT.topic("stats")],
        "longhaul-telegraf-events": [CONTRACT.topic("events")],
        "longhaul-telegraf-path": [CONTRACT.topic("paths"), CONTRACT.topic("history.path")],
    }


def test_thresholds_are_numbers():
    assert CONTRACT.threshold("loss_alarm_percent") == 2.0


def test_record_headers_by_name():
    assert CONTRACT.header("sent_ms") == "longhaul-sent-ms"


@pytest.mark.parametrize(
    "old,new,says",
    [
        ("closes: high_loss", "closes: stall", "only a recovery, closes an alert"),
        ("  - name: stall\n    role: info", "  - name: stall\n    role: warning", "is not one of"),
        ("schema: link_stats.v3", "schema: link_stats.v4", "topics.yaml longhaul.stats: no role"),
    ],
)
def test_a_broken_contract_is_refused(tmp_path, old, new, says):
    shutil.copy(INGEST / "topics.yaml", tmp_path / "topics.yaml")
    text = (INGEST / "contract.yaml").read_text()
    assert old in text
    (tmp_path / "contract.yaml").write_text(text.replace(old, new, 1))
    with pytest.raises(ValueError, match=re.escape(says)):
        longhaul_contract.load(tmp_path)


def test_an_agent_writes_its_own_raw_topics():
    assert CONTRACT.own_topic("longhaul.raw.rtt", "agent-cern-ps1") == "longhaul.raw.rtt.agent-cern-ps1"
    assert CONTRACT.own_topic("longhaul.raw.rtt", "psbridge") == "longhaul.raw.rtt"
    # its dead letters too, bounded alone; the importer's and the shared bridge's stay shared
    assert (
        CONTRACT.own_topic(CONTRACT.topic("dead_letter"), "agent-a")
        == CONTRACT.topic("dead_letter") + ".agent-a"
    )
    assert CONTRACT.own_topic(CONTRACT.topic("dead_letter"), "importer") == CONTRACT.topic("dead_letter")
