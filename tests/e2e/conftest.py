"""Fixtures for the end-to-end scenario tests: a testbed of network namespaces
(tests/testbed/testbed.sh) with the real agents in its sender namespaces, the real Flink job,
Kafka, Telegraf and InfluxDB of the native stack (scripts/test-all.sh starts it)."""

import json
import os
import pathlib
import subprocess
import sys
import threading
import time
import uuid

import pytest
from confluent_kafka import OFFSET_BEGINNING, KafkaException, TopicPartition

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "lib"))
sys.path.insert(0, str(ROOT / "ingest"))
import alertmanager  # noqa: E402  (SECRETS: the stack's secrets folder)
import delivered_runs  # noqa: E402  (runs delivered against the statistics stored)
import flink_job as lifecycle  # noqa: E402  (the job lifecycle through bin/longhaul job)
import influxdb  # noqa: E402  (the one InfluxDB client)
import kafka  # noqa: E402  (the Kafka connection)
from longhaul_contract import CONTRACT  # noqa: E402  (ingest/contract.yaml)

topic = CONTRACT.topic

# the job's parameters for a story of a few minutes, shared with make demo
JOB_ARGS = lifecycle.testbed_profile()  # longhaul job submit adds --kafka from LONGHAUL_KAFKA


class Testbed:
    """tests/testbed/testbed.sh under its own namespace prefix and sender names."""

    def __init__(self, prefix, site):
        self.prefix, self.site = prefix, site
        # the agents reach the brokers of LONGHAUL_KAFKA (kafka.BOOTSTRAP), each port forwarded
        self.env = {
            **os.environ,
            "LONGHAUL_TESTBED_PREFIX": prefix,
            "LONGHAUL_TESTBED_SITE": site,
            "LONGHAUL_KAFKA": kafka.BOOTSTRAP,
        }

    def __call__(self, *args, timeout=120):
        r = subprocess.run(
            ["bash", str(ROOT / "tests/testbed/testbed.sh"), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert r.returncode == 0, f"testbed.sh {' '.join(args)}: {r.stdout}{r.stderr}"
        return r.stdout

    def src(self, sender):
        return f"{self.site}-{sender}"

    @property
    def run(self):
        """Its run folder (testbed.sh run-dir): the agents' configs, password files and logs."""
        return pathlib.Path(self("run-dir").strip())


@pytest.fixture(scope="session")
def testbed():
    tag = uuid.uuid4().hex[:6]
    # namespaces of their own per run: CI and a developer may run the tests on one machine at once
    tb = Testbed(f"lhe{tag[:4]}", f"e2e{tag}")
    try:
        tb("up")
        yield tb
    finally:  # namespaces and their processes go even when a test failed
        subprocess.run(["bash", str(ROOT / "tests/testbed/testbed.sh"), "down"], env=tb.env, timeout=120)


@pytest.fixture(scope="session")
def flink_job(testbed):
    name = f"longhaul-{testbed.site}"
    jid = lifecycle.submit(name, JOB_ARGS)
    try:
        yield jid
    finally:
        lifecycle.cancel(name)


class Recorder:
    """Collects, in a thread, every message of `topics` whose src (or an incident's link's src)
    starts with `site`, with the wall-clock time it arrived. A raw topic comes with the own topics of
    the site's agents (agent-<site>-..., where they write), those made later (`longhaul admin
    add-agent` as the testbed's agents start) read from their beginning within REFRESH_S."""

    REFRESH_S = 3

    def __init__(self, topics, site, committed):
        self.site, self.items, self.lock = site, [], threading.Lock()
        self.topics, self.assigned = topics, set()
        # Partitions assigned by hand from their end offsets now, no group: a group's members
        # are assigned anew when its coordinator's broker dies, and, with no offsets committed,
        # would start at the latest offset again, skipping what arrived meanwhile.
        self.c = kafka.consumer(
            {
                "group.id": "e2e-" + uuid.uuid4().hex,
                "enable.auto.commit": False,
                "isolation.level": "read_committed" if committed else "read_uncommitted",
            }
        )
        self._assign(at_end=True)
        self.raw = any(t in CONTRACT.raw_topics() for t in self.topics)
        self.refreshed = time.time()
        self.stop = threading.Event()
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _wanted(self, name):
        """One of the topics, or an own topic of one by an agent of the site."""
        return name in self.topics or any(
            t in CONTRACT.raw_topics() and name.startswith(CONTRACT.own_topic(t, "agent-" + self.site))
            for t in self.topics
        )

    def _assign(self, at_end, timeout_s=60):
        """Adds the wanted topics not assigned yet: from their end now (at_end), else from their
        beginning (made after the recorder started)."""
        parts = []
        for name, meta in self.c.list_topics(timeout=timeout_s).topics.items():
            if name in self.assigned or not self._wanted(name):
                continue
            for p in meta.partitions:
                start = OFFSET_BEGINNING
                if at_end:
                    _, start = self.c.get_watermark_offsets(TopicPartition(name, p), timeout=60)
                parts.append(TopicPartition(name, p, start))
            self.assigned.add(name)
        if parts:
            self.c.incremental_assign(parts)

    def _run(self):
        for m in kafka.records(self.c, self._between_polls):
            msg = json.loads(m.value())
            if self.ours(msg):
                with self.lock:
                    self.items.append((time.time(), msg))
        self.c.close()

    def _between_polls(self):
        """Before each poll: a raw topic's partitions made since (agents' own topics) assigned
        every REFRESH_S; true once the recorder stops."""
        if self.raw and time.time() - self.refreshed > self.REFRESH_S:
            try:
                self._assign(at_end=False, timeout_s=2)
            except KafkaException:
                pass  # a broker killed by the story: again at the next refresh
            self.refreshed = time.time()
        return self.stop.is_set()

    def ours(self, msg):
        """A message of the site's senders: its src, or one of an incident's links (an incident
        at a hop or a site has src "*")."""
        srcs = [msg.get("src", "")] + [link.get("src", "") for link in msg.get("links") or []]
        return any(str(s).startswith(self.site) for s in srcs)

    def snapshot(self):
        with self.lock:
            return list(self.items)

    def close(self):
        self.stop.set()
        self.t.join(10)


@pytest.fixture(scope="session")
def recorders(testbed):
    ev = Recorder([topic("events")], testbed.site, committed=True)
    raw = Recorder([topic("raw.throughput"), topic("raw.path")], testbed.site, committed=False)
    yield ev, raw
    ev.close()
    raw.close()


def influx_query(q):
    return influxdb.rows(q)


# what a healthy testbed link carries (the testbed's shapers; s2 → dst-d is held by its 64 KB
# window), and how often its agents run throughput tests unless a story says otherwise
# (testbed.sh, LONGHAUL_TESTBED_TPUT_INTERVAL)
NOMINAL = {"dst-a": 94e6, "dst-b": 47e6, "dst-c": 190e6, "dst-d": 3.7e6}
TESTBED_TPUT_S = 25


def import_baselines(tb, links, every_s=TESTBED_TPUT_S, runs=12):
    """`runs` throughput runs a link ({(sender, dst): bit/s}), one every `every_s` before now, as
    `longhaul import` publishes them: to the history topic, as the importer user (the only one that
    may write it), newest first. The job learns each link's baseline from them without judging
    them, so a story needs no healthy phase to learn one (it would take 5 runs)."""
    p = kafka.producer(
        {"enable.idempotence": True},
        user="importer",
        password_file=alertmanager.SECRETS / "kafka-importer.password",
    )
    now = int(time.time() * 1000)
    for (sender, dst), bps in links.items():
        src = tb.src(sender)
        for k in range(1, runs + 1):  # newest first
            x = bps * (1 + 0.02 * ((k % 5) - 2))
            msg = {
                "schema": "throughput_sample",
                "version": 2,
                "src": src,
                "dst": dst,
                "probe_id": "tcp",
                "ts": now - k * every_s * 1000,
                "run_id": f"history-{k}",
                "record": "summary",
                "tool": "iperf3",
                "protocol": "tcp",
                "start_s": 0.0,
                "end_s": 4.0,
                "bytes": int(x * 4 / 8),
                "bits_per_second": x,
            }
            p.produce(topic("history.throughput"), key=f"{src}|{dst}", value=json.dumps(msg).encode())
    assert p.flush(30) == 0, "Kafka did not acknowledge the history"


def wait_event(rec, kind, src, dst, after, timeout_s):
    """True once `rec` (a Recorder of events) holds a `kind` event of src → dst that arrived
    after `after`; False after timeout_s."""
    end = time.time() + timeout_s
    while time.time() < end:
        if any(
            e["kind"] == kind and e["src"] == src and e["dst"] == dst and t >= after
            for t, e in rec.snapshot()
        ):
            return True
        time.sleep(3)
    return False


def runs_lost_or_doubled(raw, site, until):
    """The runs the agents of `site` delivered (raw) against the 1-minute statistics InfluxDB
    holds, over the minutes the job had closed when it stopped at `until`
    (delivered_runs.windows_lost_or_doubled)."""
    rows = influx_query(
        f'SELECT "runs" FROM "raw"."link_stats" WHERE "src" =~ /^{site}-/ '
        f'AND "window" = \'1m\' GROUP BY "src", "dst", "protocol"'
    )
    stored = {(r["src"], r["dst"], r["protocol"], r["time"]): r["runs"] for r in rows}
    return delivered_runs.windows_lost_or_doubled(stored, raw, until)


def said(name, m):
    """One record of a link's story, in a line: a raw run, a probe request or an event."""
    if name == "raw" and m.get("schema") == "rtt_sample":
        return f"ping {m.get('probe_id')} received={m.get('received')}/{m.get('sent')} error={m.get('error')}"
    if name == "raw" and m.get("schema") == "path_sample":
        return f"path {m.get('probe_id')} reached={m.get('reached')} error={m.get('error')}"
    if name == "raw":
        return (
            f"{m['probe_id']} screens={m.get('screens')} bps={m.get('bits_per_second')} "
            f"error={m.get('error')} request={m.get('request_id')}"
        )
    if name == "requests":
        return f"{m.get('reason')} request={m.get('request_id')} expires={m.get('expires_ts')}"
    return f"{m['kind']} {m.get('severity')}: {m.get('message')}"


def link_story(recs, src, dst, since, until=None):
    """What a link's records ({name: [(arrival, message)]}) said between `since` and `until`
    (wall clock), in arrival order, with each record's event time: printed when a test's verdict
    hangs on a link, so a failure shows which run, ping, request or event came late, low or never.
    src None: every sender's. Throughput runs show their summary only."""
    lines = sorted(
        (t, f"  +{t - since:6.1f}s {name:8} ts={m.get('ts')} {m.get('src')} {said(name, m)}")
        for name, items in recs.items()
        for t, m in items
        if m.get("dst") == dst
        and (src is None or m.get("src") == src)
        and since <= t
        and (until is None or t < until)
        and m.get("record", "summary") == "summary"
    )
    print(f"[e2e] {src or '*'} → {dst} from {since:.1f}:\n" + "\n".join(x for _, x in lines), flush=True)


def record(name, value):
    """Keeps a measured delay or figure in tests/out/e2e-measurements.json (docs/benchmarks.md
    quotes them) and prints it."""
    out = ROOT / "tests/out"
    out.mkdir(exist_ok=True)
    path = out / "e2e-measurements.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = round(value, 1)
    path.write_text(json.dumps(data, indent=1))
    print(f"[e2e {time.strftime('%H:%M:%S')}] {name}: {value:.1f}", flush=True)
