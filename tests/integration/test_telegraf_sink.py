"""Telegraf consumes the result topics from the real Kafka and writes line protocol to the real
InfluxDB: each statistic lands in the retention policy of its window, events in `daily`."""

from conftest import now_ms, rows, topic, wait_for_series


def stats(src, window, ts, **numbers):
    start = ts - {"1m": 60_000, "1h": 3_600_000, "1d": 86_400_000}[window]
    return {
        "schema": "link_stats",
        "version": 1,
        "src": src,
        "dst": "lyon",
        "probe_id": "link-stats",
        "ts": ts,
        "protocol": "tcp",
        "window": window,
        "window_start": start,
        "window_end": ts,
        "samples": 10,
        "runs": 1,
        "errors": 0,
        "throughput_mean_bps": 2.81e6,
        "throughput_median_bps": None,
        **numbers,
    }


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
