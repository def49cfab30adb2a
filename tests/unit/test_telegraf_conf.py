"""ingest/telegraf/telegraf.conf against what it reads and what runs it: the statistics' parser
keeps each field of link_stats in its schema's type (an InfluxDB field keeps the type it was first
written with, so a float where an integer was refuses the points), and the native stack's trimmed
Telegraf build has every plugin and data format the config names (a missing one fails its start)."""

import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ingest"))
from longhaul_contract import CONTRACT, schema_types  # noqa: E402

CONF = tomllib.loads((ROOT / "ingest/telegraf/telegraf.conf").read_text())
STATS_TYPES = schema_types(CONTRACT.schema("stats"))


def stats_input():
    (stats,) = [i for i in CONF["inputs"]["kafka_consumer"] if i["alias"] == "stats"]
    return stats


def converted_integers():
    (conv,) = [p for p in CONF["processors"]["converter"] if p.get("namepass") == ["link_stats"]]
    return set(conv["fields"]["integer"])


def test_the_statistics_integers_are_written_as_integers():
    stats = stats_input()
    kept = set(STATS_TYPES) - set(stats["tag_keys"]) - set(stats["fieldexclude"]) - {stats["json_time_key"]}
    integers = {n for n, t in STATS_TYPES.items() if t == {"integer"} and n in kept}
    assert stats["data_format"] == "json"
    assert converted_integers() == integers


def test_the_statistics_booleans_are_kept_and_their_strings_are_tags():
    stats = stats_input()
    types = STATS_TYPES
    booleans = {n for n, t in types.items() if t == {"boolean"}}
    assert set(stats["json_string_fields"]) == booleans
    assert set(stats["tag_keys"]) <= set(types)
    # the json parser drops a string field: the schema's strings are tags or meant to be dropped
    dropped = {n for n, t in types.items() if "string" in t} - set(stats["tag_keys"]) - booleans
    assert dropped <= {"schema", "probe_id"}, dropped


def used_plugins():
    """Every plugin and data format the config names, as Telegraf's build tags spell them."""
    out = set()
    for kind in ("inputs", "processors", "outputs"):
        for name, blocks in CONF.get(kind, {}).items():
            out.add(f"{kind}.{name}")
            for block in blocks:
                if "data_format" in block:
                    out.add(("parsers." if kind == "inputs" else "serializers.") + block["data_format"])
    return out


def test_the_native_stacks_telegraf_build_has_every_plugin_the_config_names():
    defaults = (ROOT / "scripts/stack/defaults.env").read_text()
    tags = set(re.search(r"LONGHAUL_TELEGRAF_TAGS:=([^}]+)\}", defaults).group(1).split(","))
    assert used_plugins() - tags == set()
