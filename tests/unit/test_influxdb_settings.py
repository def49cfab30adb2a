"""InfluxDB's storage settings, one sizing in three config formats: the native stack's and
systemd's (scripts/stack/influxdb.sh), compose's environment and the Helm chart's values."""

import re

import yaml
from kubernetes_manifests import COMPOSE, KDIR
from stack_programs import ROOT


def native_data_settings():
    """The [data] settings scripts/stack/influxdb.sh writes, as strings, without quotes."""
    section = (ROOT / "scripts/stack/influxdb.sh").read_text().split("\n[data]\n", 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^  ([a-z-]+) = "?([^"\n]*)"?$', section, re.M))


def test_influxdbs_storage_settings_are_the_native_stacks():
    """The chart's and compose's data settings (the series caps, the index, the cache's snapshot
    size) are the ones scripts/stack/influxdb.sh writes for the native stack and systemd's install:
    one sizing, three config formats."""
    local = {"dir", "wal-dir", "query-log-enabled"}  # the machine's paths; the chart leaves the log as it is
    helm = yaml.safe_load((KDIR / "helm/influxdb-values.yaml").read_text())
    chart = {k: str(v).lower() for k, v in helm["config"]["data"].items()}
    assert chart == {k: v for k, v in native_data_settings().items() if k not in local}
    env = COMPOSE["influxdb"]["environment"]
    compose = {k.removeprefix("INFLUXDB_DATA_").lower().replace("_", "-"): v for k, v in env.items()}
    assert {k: compose.get(k) for k in chart} == chart
    assert chart["cache-snapshot-memory-size"] == "64m"
