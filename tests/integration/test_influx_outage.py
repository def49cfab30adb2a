"""Nothing is lost while InfluxDB is down: InfluxDB of the native stack is stopped for half a minute
while link statistics keep arriving in Kafka; Telegraf's kafka_consumer (tracking metrics,
max_undelivered_messages) commits no offset it could not write, so when InfluxDB is back every
point is stored, each exactly once."""

import json
import time

import stack
from conftest import influx_query, influxdb, kafka, now_ms, topic
from messages import link_stats

# 60 of Telegraf's 500 ms flushes fail and 300 points wait undelivered: a minute (this test's
# length until 2026-12-02) showed nothing more, for 30 s more of make test
OUTAGE_S = 30


def influx_up():
    return influxdb.health()


def stat(src, ts):
    return link_stats(src, "outage-dst", ts, samples=5, runs=1, errors=0, throughput_mean_bps=1e8)


def count(src):
    series = influx_query(f'SELECT count("samples") FROM "raw"."link_stats" WHERE "src" = \'{src}\'')
    return series[0]["values"][0][1] if series else 0


def test_stopping_influxdb_for_half_a_minute_loses_no_point(run_tag):
    p = kafka.producer({"enable.idempotence": True})
    base = now_ms() // 1000 * 1000 - 3_600_000  # one point per second of event time, all distinct
    sent = 0

    def send(n):
        nonlocal sent
        for _ in range(n):
            p.produce(
                topic("stats"),
                key=f"{run_tag}|outage-dst",
                value=json.dumps(stat(run_tag, base + sent * 1000)),
            )
            sent += 1
        assert p.flush(15) == 0

    send(50)  # before: flows normally
    deadline = time.time() + 60
    while count(run_tag) < 50 and time.time() < deadline:
        time.sleep(1)
    assert count(run_tag) == 50

    stack.run("stop_influxdb", timeout=120)
    stopped = time.time()
    try:
        assert not influx_up()
        while time.time() - stopped < OUTAGE_S:  # during: 10 points a second
            send(10)
            time.sleep(1)
        assert not influx_up(), "InfluxDB came back on its own during the outage"
        outage = time.time() - stopped
    finally:
        stack.run("start_influxdb && wait_for 60 health_influxdb", timeout=120)
    send(50)  # after
    deadline = time.time() + 120
    while count(run_tag) < sent and time.time() < deadline:
        time.sleep(2)
    stored = count(run_tag)
    print(f"\noutage {outage:.0f} s: produced {sent} points, stored {stored}")
    assert outage >= OUTAGE_S
    assert stored == sent, f"produced {sent} points, InfluxDB holds {stored} after a {outage:.0f} s outage"
