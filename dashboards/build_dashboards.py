"""Writes dashboards/json/*.json, Longhaul's Grafana dashboards, from the definitions in boards/ (one module a dashboard, common.py what they share).
Edit here, run `python dashboards/build_dashboards.py`, commit both; tests/unit/test_dashboards.py
fails when the JSON and this file disagree. Every query is raw InfluxQL against the provisioned
datasource (uid longhaul-influxdb); Grafana expands $timeFilter, $__interval and the variables."""

import argparse
import json
import pathlib

from boards.alerts import alerts
from boards.link import link
from boards.mesh import mesh
from boards.paths import paths

OUT = pathlib.Path(__file__).resolve().parent / "json"
BOARDS = (("mesh-overview", mesh), ("link-detail", link), ("paths", paths), ("alerts", alerts))


def main():
    ap = argparse.ArgumentParser(description="Writes Longhaul's Grafana dashboards as JSON.")
    ap.add_argument("--out", type=pathlib.Path, default=OUT, help="the folder (default: dashboards/json)")
    out = ap.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for name, build in BOARDS:
        (out / f"{name}.json").write_text(json.dumps(build(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
