"""The whole pipeline on the real services: raw samples produced to Kafka are consumed by the
Flink job submitted to the standalone cluster, whose statistics reach Kafka and, through
Telegraf, InfluxDB; a malformed sample becomes a dead letter with its reason."""

import flink_job
import pytest
from conftest import QUICK_JOB_ARGS, holds, now_ms, rows, topic, wait_for_series


def interval(src, ts, bps, run_id="run-1"):
    return {
        "schema": "throughput_sample",
        "version": 1,
        "src": src,
        "dst": "lyon",
        "probe_id": "tcp-1",
        "ts": ts,
        "run_id": run_id,
        "record": "interval",
        "tool": "iperf3",
        "protocol": "tcp",
        "start_s": 0.0,
        "end_s": 1.0,
        "bytes": int(bps / 8),
        "bits_per_second": bps,
        "retransmits": 1,
        "rtt_ms": 140.0,
    }


@pytest.fixture
def job(run_tag):
    flink_job.submit(run_tag, ["--starting-offsets", "earliest", *QUICK_JOB_ARGS])
    yield run_tag
    flink_job.cancel(run_tag)


def test_raw_samples_become_link_statistics_in_kafka_and_influxdb(job, produce, consume, run_tag):
    # three samples within one second: in one 1m window whatever the link's stagger (whole seconds)
    first = (now_ms() // 60_000 - 2) * 60_000 + 10_000
    for i, bps in enumerate([100e6, 120e6, 80e6]):
        produce(topic("raw.throughput"), interval(run_tag, first + 300 * i, bps))
    # a later sample of the same link moves the watermark past the end of that window (≤ 60 s on)
    produce(topic("raw.throughput"), interval(run_tag, first + 65_000, 90e6, run_id="run-2"))

    stats = consume(
        topic("stats"),
        lambda m: m["src"] == run_tag and m["window"] == "1m" and holds(m, first),
        timeout_s=120,
    )
    end = stats["window_end"]
    assert stats["samples"] == 3 and stats["protocol"] == "tcp" and stats["ts"] == end
    assert end - stats["window_start"] == 60_000 and end % 1000 == 0, stats
    assert stats["throughput_mean_bps"] == pytest.approx(100e6)
    assert stats["throughput_max_bps"] == pytest.approx(120e6, rel=0.02)
    assert stats["retransmits"] == 3

    stored = rows(
        wait_for_series(
            f'SELECT "samples", "throughput_mean_bps" FROM "raw"."link_stats" WHERE "src" = \'{run_tag}\' AND "window" = \'1m\''
        )
    )
    assert [(r["time"], r["samples"]) for r in stored if r["time"] == end] == [(end, 3)]


def test_a_malformed_sample_becomes_a_dead_letter_and_the_job_keeps_running(job, produce, consume, run_tag):
    bad = interval(run_tag, now_ms(), 5e6)
    bad["ts"] = bad["ts"] // 1000  # seconds instead of milliseconds
    produce(topic("raw.throughput"), bad)
    dead = consume(topic("dead_letter"), lambda m: m["src"] == run_tag, timeout_s=90)
    assert dead["source_topic"] == topic("raw.throughput")
    assert "$.ts" in dead["reason"]
    assert f'"src": "{run_tag}"' in dead["payload"] or run_tag in dead["payload"]
    assert flink_job.states(job)[0] == "RUNNING", "a malformed sample must not fail the job"
