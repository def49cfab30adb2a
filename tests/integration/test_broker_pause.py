"""A lone broker stalled longer than Kafka's default session (9 s), as a loaded host's scheduler,
IO or garbage collector stalls it, keeps every partition: it is its own controller and has no
other broker to fail over to, so fencing it on waking would only take every partition's leader
away until it registered again (scripts/stack/defaults.env, LONGHAUL_KAFKA_SESSION_TIMEOUT_MS).
Before: a 12 s SIGSTOP fenced 2,163 partitions (2026-12-05)."""

import os
import signal
import time

import kafka
import stack
from alertmanager import STACK
from conftest import topic
from longhaul_contract import telegraf_groups

# beyond Kafka's 9 s default broker.session.timeout.ms and its 2 s heartbeat, within the stack's 20 s
PAUSE_S = 12
LOG = STACK / "run/kafka/logs/server.log"


def log_since(offset):
    """What the broker logged since offset (all of server.log if it rolled over meanwhile)."""
    with open(LOG, "rb") as f:
        f.seek(offset if LOG.stat().st_size >= offset else 0)
        return f.read().decode(errors="replace")


def leaderless(names):
    md = kafka.admin().list_topics(timeout=10).topics
    return [f"{n}[{p}]" for n in names for p, part in md[n].partitions.items() if part.leader < 0]


def test_a_lone_broker_stalled_past_kafkas_default_session_keeps_its_partitions():
    props = (STACK / "run/kafka/server.properties").read_text()
    assert "broker.session.timeout.ms=20000" in props.splitlines(), "the stack's broker is not alone"
    pid = stack.pid("kafka")
    assert pid, "kafka is not running"
    names = [topic("raw.throughput"), topic("stats"), topic("events")]
    assert leaderless(names) == []
    offset = LOG.stat().st_size
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(PAUSE_S)
    finally:
        os.kill(pid, signal.SIGCONT)
    deadline = time.time() + 60
    while not stack.healthy("kafka"):
        assert time.time() < deadline, "kafka not healthy within 60 s of its resumption"
        time.sleep(0.5)
    # the controller's stale-broker check runs every second or so: give it a few rounds awake
    time.sleep(3)
    fenced = [line for line in log_since(offset).splitlines() if "Fencing broker" in line]
    assert fenced == [], fenced
    assert leaderless(names) == []
    # the tests after this one find Telegraf consuming again (its groups' sessions lapsed meanwhile)
    kafka.wait_caught_up(telegraf_groups())
