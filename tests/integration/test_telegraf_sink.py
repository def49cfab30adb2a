"""Telegraf consumes the result topics from the real Kafka and writes line protocol to the real
InfluxDB: each statistic lands in the retention policy of its window, events in `daily`."""

from conftest import CONTRACT, influx_query, now_ms, rows, topic, wait_for_series
from longhaul_contract import schema_types
from messages import link_stats

# an InfluxDB field's type, by its schema property's JSON type
INFLUX_TYPE = {"integer": "integer", "number": "float", "boolean": "boolean"}


def stats(src, window, ts, **numbers):
    figures = {
        "samples": 10,
        "runs": 1,
        "errors": 0,
        "throughput_mean_bps": 2.81e6,
        "throughput_median_bps": None,
    }
    return link_stats(src, "lyon", ts, window=window, **(figures | numbers))


def test_link_stats_reach_influxdb_in_the_policy_of_their_window(produce, run_tag):
    ts = now_ms() // 60_000 * 60_000
    produce(topic("stats"), stats(run_tag, "1m", ts, retransmits=14, rtt_mean_ms=283.3))
    produce(topic("stats"), stats(run_tag, "1h", ts, throughput_mean_bps=5.57e8))

    minute = rows(wait_for_series(f'SELECT * FROM "raw"."link_stats" WHERE "src" = \'{run_tag}\''))
    assert len(minute) == 1
    assert minute[0]["time"] == ts
    assert minute[0]["throughput_mean_bps"] == 2.81e6
    assert minute[0]["retransmits"] == 14 and minute[0]["samples"] == 10
    assert minute[0]["rtt_mean_ms"] == 283.3
    assert minute[0]["dst"] == "lyon" and minute[0]["protocol"] == "tcp" and minute[0]["window"] == "1m"
    assert "rp" not in minute[0], "the routing tag must not be stored"

    hour = rows(wait_for_series(f'SELECT * FROM "hourly"."link_stats" WHERE "src" = \'{run_tag}\''))
    assert [r["throughput_mean_bps"] for r in hour] == [5.57e8]


def test_events_reach_influxdb_with_their_evidence(produce, run_tag):
    ts = now_ms()
    produce(
        topic("events"),
        {
            "schema": "event",
            "version": 1,
            "kind": "throughput_collapse",
            "src": run_tag,
            "dst": "lyon",
            "probe_id": "collapse-detector",
            "ts": ts,
            "severity": "critical",
            "protocol": "tcp",
            "episode_id": "e-1",
            "message": "throughput 2.5 Mbit/s is 99% below the baseline",
            "evidence": {"baseline_bps": 5.57e8, "observed_bps": 2.5e6},
        },
    )
    ev = rows(wait_for_series(f'SELECT * FROM "daily"."events" WHERE "src" = \'{run_tag}\''))
    assert len(ev) == 1
    assert ev[0]["time"] == ts and ev[0]["kind"] == "throughput_collapse" and ev[0]["severity"] == "critical"
    assert ev[0]["evidence_baseline_bps"] == 5.57e8 and ev[0]["evidence_observed_bps"] == 2.5e6
    assert ev[0]["message"].startswith("throughput 2.5 Mbit/s")


def test_the_collapse_detectors_baseline_reaches_raw_with_its_probe_as_a_tag(produce, run_tag):
    """link_stats.v3 window baseline, as the job writes it (every field present, null where unset):
    beside the 1-minute statistics in raw, its probe a tag, its ready flag a boolean the dashboards'
    `"baseline_ready" = true` selects, the 1-minute window untouched by the baseline fields."""
    ts = now_ms() // 60_000 * 60_000
    baseline = {f: None for f in ("errors", "throughput_mean_bps", "retransmits", "rtt_mean_ms", "hop_count")}
    for i, ready in ((0, False), (1, True)):
        at = ts - 60_000 + i * 30_000
        baseline |= link_stats(
            run_tag,
            "lyon",
            at,
            version=3,
            window="baseline",
            probe_id="collapse-detector",
            samples=4 + i,
            runs=4 + i,
            series="tcp-default",
            baseline_bps=9.4e7 + i * 1e6,
            baseline_spread_bps=1.2e6,
            baseline_min_runs=5,
            baseline_ready=ready,
        )
        produce(topic("stats"), baseline)
    minute = stats(run_tag, "1m", ts) | {
        "version": 3,
        "series": None,
        "baseline_bps": None,
        "baseline_spread_bps": None,
        "baseline_min_runs": None,
        "baseline_ready": None,
    }
    produce(topic("stats"), minute)

    where = f"\"src\" = '{run_tag}' AND \"window\" = 'baseline'"
    ready = rows(
        wait_for_series(
            f'SELECT last("baseline_bps") AS "baseline" FROM "raw"."link_stats" WHERE {where} AND "baseline_ready" = true'
        )
    )
    assert [r["baseline"] for r in ready] == [9.5e7]
    got = rows(wait_for_series(f'SELECT * FROM "raw"."link_stats" WHERE {where}'))
    assert [(r["runs"], r["baseline_ready"], r["baseline_min_runs"]) for r in got] == [
        (4, False, 5),
        (5, True, 5),
    ]
    assert all(r["series"] == "tcp-default" and r["baseline_spread_bps"] == 1.2e6 for r in got), got
    assert "throughput_mean_bps" not in got[0] or got[0]["throughput_mean_bps"] is None
    window = rows(
        wait_for_series(f'SELECT * FROM "raw"."link_stats" WHERE "src" = \'{run_tag}\' AND "window" = \'1m\'')
    )
    assert len(window) == 1 and window[0]["throughput_mean_bps"] == 2.81e6
    assert window[0].get("series") is None and window[0].get("baseline_bps") is None, window[0]


def test_every_statistic_field_has_its_schemas_type_in_influxdb(produce, run_tag):
    """Telegraf's parser reads numbers as floats: the schema's integers must reach InfluxDB as
    integers and its booleans as booleans (a field keeps the type it was first written with)."""
    ts = now_ms() // 60_000 * 60_000
    produce(topic("stats"), stats(run_tag, "1m", ts, retransmits=3))
    produce(
        topic("stats"),
        link_stats(run_tag, "lyon", ts, version=3, window="baseline", samples=2, runs=2, series="tcp-x")
        | {"baseline_bps": 9.4e7, "baseline_min_runs": 5, "baseline_ready": False},
    )
    wait_for_series(
        f'SELECT * FROM "raw"."link_stats" WHERE "src" = \'{run_tag}\' AND "window" = \'baseline\''
    )
    want = {
        name: INFLUX_TYPE[t]
        for name, types in schema_types(CONTRACT.schema("stats")).items()
        for t in types
        if len(types) == 1 and t in INFLUX_TYPE
    }
    got = {k: t for s in influx_query('SHOW FIELD KEYS FROM "raw"."link_stats"') for k, t in s["values"]}
    for name in (
        "samples",
        "runs",
        "retransmits",
        "baseline_min_runs",
        "baseline_ready",
        "throughput_mean_bps",
    ):
        assert got.get(name) == want[name], (name, got.get(name), want[name])
    assert {k: t for k, t in got.items() if k in want and t != want[k]} == {}
