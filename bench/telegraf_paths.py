"""Telegraf's path input and InfluxDB: the CPU each validated trace costs them, and how long the
stack takes to store a backlog of traces. --traces traces of --hops hops and --queries queries
each (the generator's shape: 15 × 3) for 500 links are written to longhaul.paths, as the job
writes the traces it validated; the figure is timed until InfluxDB holds every one of them (a
point per trace in its link's path_hops series, ingest/README.md), with the CPU per trace of
Telegraf, InfluxDB and Kafka over that time (cpu_budget).

python bench/telegraf_paths.py --traces 10000"""

import argparse
import json
import time

import common
import cpu_budget
from common import CONTRACT

LINKS = 500


def trace(prefix, i, hops, queries, t0):
    """Trace i: link i % LINKS, one a second per link from t0, every query of every hop answered."""
    link = i % LINKS
    return {
        "schema": "path_sample",
        "version": 2,
        "src": f"{prefix}-s{link % 20}",
        "dst": f"{prefix}-d{link}",
        "probe_id": "path",
        "ts": t0 + (i // LINKS) * 1000,
        "run_id": f"{prefix}-{i}",
        "tool": "traceroute",
        "target": f"{prefix}-d{link}",
        "dst_addr": "192.0.2.1",
        "max_ttl": 30,
        "queries": queries,
        "reached": True,
        "hops": [
            {
                "ttl": ttl,
                "probes": [
                    {"addr": f"10.{ttl}.{link % 250}.1", "rtt_ms": ttl * 9.5 + q / 10} for q in range(queries)
                ],
            }
            for ttl in range(1, hops + 1)
        ],
    }


def stored(prefix, hops):
    """How many of the run's traces InfluxDB holds: the points with their last hop's RTT."""
    q = f'SELECT count("hop_{hops:03d}_rtt_ms") FROM "raw"."path_hops" WHERE "src" =~ /^{prefix}-/'
    rows = common.influxdb.series(q, timeout=30)
    return rows[0]["values"][0][1] if rows else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--traces", type=int, default=10000)
    ap.add_argument("--hops", type=int, default=15)
    ap.add_argument("--queries", type=int, default=3)
    a = ap.parse_args()
    prefix = common.tag("bench-paths")
    t0 = int(time.time() * 1000) - 3_600_000
    msgs = [json.dumps(trace(prefix, i, a.hops, a.queries, t0)).encode() for i in range(a.traces)]
    p = common.kafka.producer({"linger.ms": 20})
    before, start = cpu_budget.snapshot(), time.time()
    for m in msgs:
        p.produce(CONTRACT.topic("paths"), value=m)
        p.poll(0)
    assert p.flush(60) == 0, "traces not written to Kafka"
    n = 0
    while time.time() - start < 600 and n < a.traces:
        time.sleep(0.5)
        n = stored(prefix, a.hops)
    after = cpu_budget.snapshot()
    cpu = cpu_budget.per_record(before, after, a.traces)
    common.emit(
        {
            "figure": "telegraf_paths",
            "traces": a.traces,
            "hops": a.hops,
            "queries": a.queries,
            "stored": n,
            "seconds": round(time.time() - start, 1),
            "us_per_trace": {
                k: v for k, v in cpu["us_per_record"].items() if k in ("telegraf", "influxdb", "kafka")
            },
        }
    )


if __name__ == "__main__":
    main()
