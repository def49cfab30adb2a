"""A refused writer credential loses nothing. Telegraf's outputs.influxdb counted a 401/403 as
delivered, so kafka_consumer committed the offsets of points never stored; with outputs.http every
refused write is retried and nothing undelivered is committed. Each test breaks the writer while
Telegraf runs (its password changed: 401; its WRITE revoked: 403), produces link statistics,
checks that none is stored, that Telegraf says why and that the consumer group committed none of
them, then fixes the writer and counts every point in InfluxDB exactly once. The first also
restarts Telegraf while the writer is wrong: the starter refuses, and the points produced while
Telegraf is down are stored too once it is fixed and started."""

import json
import os
import pathlib
import time
import uuid

import stack
from confluent_kafka import TopicPartition
from conftest import influx_query, influxdb, kafka, now_ms, topic
from messages import link_stats

ROOT = pathlib.Path(__file__).resolve().parents[2]
TELEGRAF_LOG = (
    pathlib.Path(os.environ.get("LONGHAUL_STACK_DIR", ROOT / ".stack")) / "run" / "telegraf" / "telegraf.log"
)
GROUP = "longhaul-telegraf-stats"  # telegraf.conf's consumer group of longhaul.stats
REFUSED_FOR_S = 12  # how long the refused writes are watched


def admin(stmt):
    """One statement as InfluxDB's admin (the password in the statement is InfluxDB's to redact)."""
    r = influxdb.request("POST", "/query", auth=influxdb.stack_user("admin"), data={"q": stmt})
    assert r.status_code == 200 and "error" not in r.json()["results"][0], r.text


def stat(src, ts):
    return link_stats(src, "noloss-dst", ts, samples=5, runs=1, errors=0, throughput_mean_bps=1e8)


class Producer:
    """Link statistics of one link, one per second of event time (every point distinct)."""

    def __init__(self, src):
        self.p = kafka.producer({"enable.idempotence": True})
        self.src, self.sent = src, 0
        self.base = now_ms() // 1000 * 1000 - 3_600_000

    def send(self, n):
        for _ in range(n):
            ts = self.base + self.sent * 1000
            self.p.produce(topic("stats"), key=f"{self.src}|noloss-dst", value=json.dumps(stat(self.src, ts)))
            self.sent += 1
        assert self.p.flush(15) == 0


def stored(src):
    series = influx_query(f'SELECT count("samples") FROM "raw"."link_stats" WHERE "src" = \'{src}\'')
    return series[0]["values"][0][1] if series else 0


def wait_stored(src, n, timeout_s):
    deadline = time.time() + timeout_s
    while stored(src) < n and time.time() < deadline:
        time.sleep(1)
    return stored(src)


def uncommitted():
    """Records of longhaul.stats past Telegraf's committed offsets (its consumer group's lag),
    asked without joining the group."""
    c = kafka.consumer({"group.id": GROUP, "enable.auto.commit": False})
    try:
        parts = c.list_topics(topic("stats"), timeout=10).topics[topic("stats")].partitions
        tps = c.committed([TopicPartition(topic("stats"), p) for p in parts], timeout=10)
        lag = 0
        for tp in tps:
            _, high = c.get_watermark_offsets(tp, timeout=10)
            lag += high - max(tp.offset, 0)
        return lag
    finally:
        c.close()


def telegraf_log_since(offset):
    with open(TELEGRAF_LOG, "rb") as f:
        f.seek(offset)
        return f.read().decode(errors="replace")


def watch_refused(prod, src, before, n, status, message):
    """Produce n points while the writer is refused; none may be stored, Telegraf must say why,
    and its group must hold all of them uncommitted. Returns what Telegraf logged."""
    log_at = TELEGRAF_LOG.stat().st_size
    prod.send(n)
    deadline = time.time() + REFUSED_FOR_S
    while time.time() < deadline:
        assert stored(src) == before, "a point was stored while the writer was refused"
        time.sleep(1)
    log = telegraf_log_since(log_at)
    assert f"received status code: {status}. body: {message}" in log, log[-2000:]
    assert "will be dropped" not in log and "Metrics are lost" not in log, log[-2000:]
    lag = uncommitted()
    assert lag >= n, (
        f"Telegraf committed offsets of points it could not write: {lag} uncommitted of {n} refused"
    )
    assert stack.run("health_telegraf", check=False, timeout=120).returncode == 0, (
        "Telegraf must keep running, retrying"
    )
    return log


def test_wrong_writer_password_then_fixed_loses_no_point(run_tag):
    writer_pw = influxdb.stack_user("writer")[1]
    prod = Producer(run_tag)
    prod.send(20)
    assert wait_stored(run_tag, 20, 60) == 20

    admin(f"SET PASSWORD FOR \"writer\" = 'wrong-{uuid.uuid4().hex}'")
    try:
        log = watch_refused(prod, run_tag, 20, 200, 401, '{"error":"authorization failed"}')
        assert writer_pw not in log

        # Restarted with the wrong credential, the starter refuses to run Telegraf at all.
        stack.run("stop_telegraf", timeout=120)
        p = stack.run("start_telegraf", check=False, timeout=120)
        assert p.returncode != 0
        assert "InfluxDB refused Telegraf's user writer (HTTP 401" in p.stderr, p.stderr
        assert stack.run("svc_pid telegraf", check=False, timeout=120).returncode != 0, (
            "Telegraf runs with a refused writer"
        )
        prod.send(100)  # produced while Telegraf is down
    finally:
        admin(f"SET PASSWORD FOR \"writer\" = '{writer_pw}'")
        if stack.run("health_telegraf", check=False, timeout=120).returncode != 0:
            stack.run("start_telegraf && wait_for 60 health_telegraf", timeout=120)

    prod.send(30)  # after the fix
    count = wait_stored(run_tag, prod.sent, 120)
    print(
        f"\nwrong writer password: produced {prod.sent} points (200 refused, 100 while Telegraf was down), stored {count}"
    )
    assert count == prod.sent
    time.sleep(3)
    assert stored(run_tag) == prod.sent, "more points than were produced"


def test_revoked_write_privilege_then_granted_loses_no_point(run_tag):
    db = influxdb.DB
    prod = Producer(run_tag)
    prod.send(10)
    assert wait_stored(run_tag, 10, 60) == 10

    admin(f'REVOKE ALL PRIVILEGES ON "{db}" FROM "writer"')
    try:
        watch_refused(
            prod,
            run_tag,
            10,
            150,
            403,
            f'{{"error":"\\"writer\\" user is not authorized to write to database \\"{db}\\""}}',
        )
    finally:
        admin(f'GRANT WRITE ON "{db}" TO "writer"')

    prod.send(10)
    count = wait_stored(run_tag, prod.sent, 120)
    print(f"\nrevoked WRITE: produced {prod.sent} points (150 refused), stored {count}")
    assert count == prod.sent
    time.sleep(3)
    assert stored(run_tag) == prod.sent
