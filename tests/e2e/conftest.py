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

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "lib"))
sys.path.insert(0, str(ROOT / "ingest"))
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
        self.env = {**os.environ, "LONGHAUL_TESTBED_PREFIX": prefix, "LONGHAUL_TESTBED_SITE": site,
                    "LONGHAUL_KAFKA_PORT": kafka.BOOTSTRAP.rsplit(":", 1)[1]}

    def __call__(self, *args):
        r = subprocess.run(["bash", str(ROOT / "tests/testbed/testbed.sh"), *args], env=self.env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"testbed.sh {' '.join(args)}: {r.stdout}{r.stderr}"
        return r.stdout

    def src(self, sender):
        return f"{self.site}-{sender}"


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
    """Collects, in a thread, every message of `topics` whose src starts with `site`, with the
    wall-clock time it arrived."""

    def __init__(self, topics, site, committed):
        self.site, self.items, self.lock = site, [], threading.Lock()
        self.c = kafka.consumer({"group.id": "e2e-" + uuid.uuid4().hex, "auto.offset.reset": "latest",
                                 "enable.auto.commit": False,
                                 "isolation.level": "read_committed" if committed else "read_uncommitted"})
        self.assigned = threading.Event()
        self.c.subscribe(topics, on_assign=lambda c, parts: self.assigned.set())
        self.stop = threading.Event()
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()
        assert self.assigned.wait(60), f"no partitions of {topics} assigned within 60 s"

    def _run(self):
        while not self.stop.is_set():
            m = self.c.poll(0.5)
            if m is None or m.error():
                continue
            msg = json.loads(m.value())
            if str(msg.get("src", "")).startswith(self.site):
                with self.lock:
                    self.items.append((time.time(), msg))
        self.c.close()

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
