"""Fixtures for integration tests: the real Kafka, Flink, InfluxDB and Telegraf of the
native stack (scripts/test-all.sh starts it and exports LONGHAUL_* addresses)."""

import json
import pathlib
import sys
import time
import uuid

import pytest
import requests

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "ingest"))
import flink_job
import influxdb
import kafka
from longhaul_contract import CONTRACT

topic = CONTRACT.topic  # a topic's name by its contract role: topic("raw.throughput")

INFLUX, INFLUX_DB = influxdb.URL, influxdb.DB


def now_ms():
    return int(time.time() * 1000)


def holds(stat, ts):
    """Whether the link_stats message `stat` is of the window holding `ts` (a link's windows start
    at its own second of the minute, the job's --stats-stagger: not necessarily on the minute)."""
    return stat["window_start"] <= ts < stat["window_end"]


@pytest.fixture
def run_tag():
    """A unique link name per test so tests never see each other's data."""
    return "it-" + uuid.uuid4().hex[:10]


# A test job's short out-of-orderness, idleness, checkpoints and own-topic relisting, so its results
# come within seconds.
QUICK_JOB_ARGS = [
    "--out-of-orderness",
    "1s",
    "--idleness",
    "3s",
    "--checkpoint-interval",
    "2s",
    "--topic-relist",
    "5s",
]
# A test's own job: from the end of the topics, quick.
LIVE_JOB_ARGS = ["--starting-offsets", "latest", *QUICK_JOB_ARGS]


@pytest.fixture
def job(run_tag, request):
    """The Flink job under the test's own name, on the contract's topics from their end now (what
    came before is other tests'): short out-of-orderness, idleness and checkpoints, so a test's
    results come within seconds. A topic made later (an agent's own) is read from its beginning.
    More job arguments: parametrize job indirectly with their list."""
    flink_job.submit(run_tag, [*LIVE_JOB_ARGS, *getattr(request, "param", [])])
    time.sleep(5)  # the sources have their partitions: "latest" starts after this point
    yield run_tag
    flink_job.cancel(run_tag)


@pytest.fixture(scope="session")
def produce():
    p = kafka.producer({"enable.idempotence": True})

    def send(topic, msg):
        p.produce(topic, key=f"{msg['src']}|{msg['dst']}", value=json.dumps(msg).encode())
        assert p.flush(15) == 0, "Kafka did not acknowledge every message"

    return send


@pytest.fixture
def consume():
    def read(topic, predicate, timeout_s=90):
        """Read `topic` from the start (committed records only) until predicate(msg) holds."""
        found = kafka.read_all(topic, predicate, 1, timeout_s=timeout_s, quiet_s=0)
        if not found:
            raise AssertionError(f"no matching message on {topic} within {timeout_s}s")
        return found[0]

    return read


def influx_query(q, rp_db=INFLUX_DB):
    return influxdb.series(q, rp_db)


def wait_for_series(q, timeout_s=60):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        series = influx_query(q)
        if series:
            return series
        time.sleep(1)
    raise AssertionError(f"no result for {q!r} within {timeout_s}s")


def rows(series):
    """InfluxQL series as a list of dicts."""
    out = []
    for s in series:
        for values in s["values"]:
            out.append({**s.get("tags", {}), **dict(zip(s["columns"], values, strict=True))})
    return out


@pytest.fixture
def bridge(tmp_path):
    """The agent as pScheduler bridge (tests/lib/psbridge.py), started; stopped after the test."""
    from psbridge import Bridge

    b = Bridge(tmp_path)
    b.start()
    yield b
    if b.proc.poll() is None:
        b.stop()


def post_latency_results(results, tmp):
    """pScheduler's HTTP archiver posting latencybg results to the agent as pScheduler bridge, which
    publishes them as latency samples; returns once it has taken them all."""
    from psbridge import Bridge

    bridge = Bridge(tmp)
    bridge.start()
    try:
        for msg in results:
            r = bridge.post(msg)
            assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
        bridge.wait(lambda h: h["samples"] >= len(results), "every result's sample spooled")
        deadline = time.time() + 60
        while requests.get(bridge.health_url, timeout=5).json()["spool"]["depth_samples"] > 0:
            assert time.time() < deadline, "the bridge did not publish its spool to Kafka within 60 s"
            time.sleep(0.3)
    finally:
        bridge.stop()


@pytest.fixture(scope="session")
def mesh_run(tmp_path_factory):
    """End to end, once per session: the real Flink job on the cluster turns mesh_story's three
    hours of raw samples into statistics and events, Telegraf writes them (and the traceroute
    hops) to InfluxDB. Returns the story's names once every kind of result is stored."""
    import mesh_story

    tag = "e2e-" + uuid.uuid4().hex[:8]
    flink_job.submit(
        tag,
        [
            "--starting-offsets",
            "latest",
            "--out-of-orderness",
            "1s",
            "--idleness",
            "30s",
            "--checkpoint-interval",
            "2s",
        ],
    )
    # Idleness 30 s, not a few seconds: the story's three hours arrive within a second, and a
    # partition the job has not fetched yet must hold the watermark back until it has, or its
    # samples would be late and dropped. Partitions without data go idle after 30 s.
    try:
        time.sleep(5)  # the sources have their partitions: "latest" starts after this point
        end = (now_ms() // 60_000 - 1) * 60_000
        post_latency_results(mesh_story.powstream_results(tag, end), tmp_path_factory.mktemp("bridge"))
        p = kafka.producer({"enable.idempotence": True, "linger.ms": 20})
        for topic, msg in mesh_story.story(tag, end):
            p.produce(topic, key=f"{msg['src']}|{msg['dst']}", value=json.dumps(msg).encode())
        assert p.flush(30) == 0
        src, fnal, triumf, kek = mesh_story.links(tag)
        expect = {
            "hourly stats": f'SELECT count("samples") FROM "hourly"."link_stats" WHERE "src" = \'{src}\'',
            "collapse detector's baseline": f'SELECT count("baseline_bps") FROM "raw"."link_stats" WHERE "dst" = \'{fnal}\' AND "window" = \'baseline\' AND "baseline_ready" = true',
            "collapse": f'SELECT * FROM "daily"."events" WHERE "dst" = \'{fnal}\' AND "kind" = \'throughput_collapse\'',
            "route change": f'SELECT * FROM "daily"."events" WHERE "dst" = \'{fnal}\' AND "kind" = \'route_change\'',
            "high loss": f'SELECT * FROM "daily"."events" WHERE "dst" = \'{triumf}\' AND "kind" = \'high_loss\'',
            "unreachable": f'SELECT * FROM "daily"."events" WHERE "dst" = \'{kek}\' AND "kind" = \'unreachable\'',
            "path hops": f'SELECT count(/^hop_\\d+_rtt_ms$/) FROM "raw"."path_hops" WHERE "src" = \'{src}\'',
            "one-way loss": f'SELECT * FROM "daily"."events" WHERE "src" = \'{fnal}\' AND "dst" = \'{src}\' AND "kind" = \'high_loss\' AND "protocol" = \'owd\'',
            "one-way delay": f'SELECT count("owd_mean_ms") FROM "raw"."link_stats" WHERE "src" = \'{src}\' AND "dst" = \'{fnal}\' AND "protocol" = \'owd\'',
            "ping stats": f'SELECT count("loss_percent") FROM "raw"."link_stats" WHERE "dst" = \'{triumf}\' AND "protocol" = \'icmp\'',
            # the correlator opens it after the links' own events and 30 s of settling: a test
            # that reads the Incidents panel must not run before it is stored
            "incident": f'SELECT * FROM "daily"."events" WHERE "src" = \'{src}\' AND "kind" = \'incident_opened\'',
        }
        for what, q in expect.items():
            try:
                wait_for_series(q, timeout_s=240)
            except AssertionError as e:
                raise AssertionError(f"end-to-end run: no {what} in InfluxDB") from e
        yield {"tag": tag, "src": src, "fnal": fnal, "triumf": triumf, "kek": kek, "end": end}
    finally:
        flink_job.cancel(tag)
