"""A traceroute's hops in InfluxDB, as the real Telegraf writes them from the validated traces
(longhaul.paths): one point per run in one series per link, each hop's fields named by its TTL
(hop_007_addr, hop_007_rtt_ms), so that a fleet's series grow with its links, not with links x
hops (issue 45: path_hops was 15 of a link's 25 series)."""

import json
import pathlib
import time
import uuid

from conftest import influx_query, kafka, now_ms, topic

ROOT = pathlib.Path(__file__).resolve().parents[2]
# 4 hops: the second all stars, the third answered by two addresses (ECMP)
EXAMPLE = ROOT / "ingest/schemas/examples/path_sample.v2/valid/reached-with-star-and-ecmp.json"
RUNS_APART_MS = 600_000


def runs(src, first_ts):
    """Two runs of the contract's example for one link, ten minutes apart; in the second, hop 3's
    last query has an address but no RTT."""
    for i in range(2):
        s = json.loads(EXAMPLE.read_text())
        s.update(src=src, dst=f"{src}-far", ts=first_ts + i * RUNS_APART_MS, run_id=f"hops-{src}-{i}")
        if i == 1:
            s["hops"][2]["probes"][-1] = {"addr": "159.226.254.9", "rtt_ms": None}
        yield s


def test_a_links_runs_are_one_series_with_a_field_per_hop():
    src = "it-hops-" + uuid.uuid4().hex[:8]
    first = now_ms() - 2 * RUNS_APART_MS
    p = kafka.producer({"message.timeout.ms": 15000})
    for s in runs(src, first):
        p.produce(topic("paths"), key=f"{s['src']}|{s['dst']}", value=json.dumps(s).encode())
    assert p.flush(30) == 0

    where = f"\"src\" = '{src}'"
    points, deadline = [], time.time() + 60
    while len(points) < 2 and time.time() < deadline:
        time.sleep(1)
        rows = influx_query(f'SELECT /^hop_/ FROM "raw"."path_hops" WHERE {where}')
        points = [dict(zip(s["columns"], v, strict=True)) for s in rows for v in s["values"]]
    assert len(points) == 2, f"want a point per run, got {points}"
    first, second = sorted(points, key=lambda p: p["time"])
    for p in (first, second):
        # the last answered query of each hop; the all-stars hop has no field at all
        assert p["hop_001_addr"] == "202.122.32.1" and p["hop_001_rtt_ms"] == 0.37, p
        assert p.get("hop_002_addr") is None and p.get("hop_002_rtt_ms") is None, p
        assert p["hop_004_addr"] == "193.48.99.78" and p["hop_004_rtt_ms"] == 283.0, p
    assert first["hop_003_addr"] == "159.226.254.1" and first["hop_003_rtt_ms"] == 1.1, first
    # each field from the last query that has it: the address from the third, the RTT the second's
    assert second["hop_003_addr"] == "159.226.254.9" and second["hop_003_rtt_ms"] == 1.4, second

    series = influx_query(f'SHOW SERIES FROM "raw"."path_hops" WHERE {where}')
    keys = [v[0] for s in series for v in s["values"]]
    assert keys == [f"path_hops,dst={src}-far,src={src}"], keys
