"""Scaled out: the testbed story on a 3-broker KRaft cluster and two TaskManagers, the job at
parallelism 2 (make up with LONGHAUL_KAFKA_BROKERS_N=3 LONGHAUL_FLINK_TASKMANAGERS=2;
scripts/test-cluster.sh starts it), where kill -9 takes the broker
that leads the partition of the collapsing link's throughput samples. The broker hangs first
(SIGSTOP) while the link collapses, so two brokers serve the story; then kill -9, and the
supervisor's respawn catches up and rejoins before the link heals.

Afterwards: every topic is replicated 3 times with min.insync.replicas 2; every sample an agent
had acknowledged is in Kafka (a copy only where a send failed), and every delivered run in
InfluxDB exactly once; the
collapse and its recovery were raised once each, in one episode, against the baseline learnt
before the kill; leadership moved off the dead broker within seconds."""

import collections
import json
import os
import pathlib
import signal
import sys
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# the e2e stories' fixtures and the test libraries (stack, kafka, ...), whatever the import order
sys.path.insert(0, str(ROOT / "ingest"))
sys.path.insert(0, str(ROOT / "tests" / "lib"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import stack  # noqa: E402
from confluent_kafka import KafkaException, TopicPartition  # noqa: E402
from confluent_kafka.admin import AdminClient, ConfigResource  # noqa: E402
from conftest import (  # noqa: E402  (conftest is found through the sys.path entry above)
    NOMINAL,
    Recorder,
    import_baselines,
    kafka,
    lifecycle,
    record,
    runs_lost_or_doubled,
    topic,
    wait_event,
)
from conftest import Testbed as Namespaces  # noqa: E402  (a Test* name would be collected)
from longhaul_contract import CONTRACT, telegraf_groups  # noqa: E402

BROKERS = int(os.environ.get("LONGHAUL_KAFKA_BROKERS_N", "1"))
# the job's parallelism: every slot of every TaskManager (scripts/test-cluster.sh: 2 × 1)
TASKMANAGERS = int(os.environ.get("LONGHAUL_FLINK_TASKMANAGERS", "1"))
PARALLELISM = TASKMANAGERS * int(os.environ.get("LONGHAUL_FLINK_TASK_SLOTS", "2"))
# dst-a's baseline is imported (import_baselines); the healthy phase lets the agents' first runs and
# the job's checkpoints of that baseline come before the broker's loss: one throughput interval (25 s)
# and its jitter (1 s), checkpoints every 2 s (45 s until 2026-12-03: make test is over its budget)
HEALTHY_S = int(os.environ.get("LONGHAUL_E2E_HEALTHY_S", "30"))
EVENT_WAIT_S = 240
FAILOVER_MAX_S = 20  # KRaft fences a broker silent for broker.session.timeout.ms (9 s)
# A sample the hung broker held reaches the job late by up to the failover, the agent's client
# wait before its spool sends it again (10 s: the contract's clock-skew tolerance ÷ 3,
# collectors/publish/sent.go) and a run's length (7 s on the testbed) after the run's ts. The
# testbed profile's 20 s of out-of-orderness is shorter: the other brokers' partitions carried
# the watermark past such samples and the 1m windows dropped them (CI, 2026-11-25: 3 runs of the
# hung partition's link in no statistic). Production's default (2 min) covers a failover; so
# must the story's.
JOB_ARGS_CLUSTER = lifecycle.testbed_profile({"--out-of-orderness": "60s", "--parallelism": PARALLELISM})
SENDERS = ["s1", "s2", "s3"]


def agent_topics(tb):
    """What the testbed's agents write: each its own raw topics (agent-<site>-<sender>), beside the
    shared ones (a dead letter, none here, is checked by count)."""
    return CONTRACT.raw_topics() + [
        CONTRACT.own_topic(t, "agent-" + tb.src(s)) for s in SENDERS for t in CONTRACT.raw_topics()
    ]


def log(msg):
    print(f"[cluster {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def broker_program(node_id):
    """The supervised program of broker `node_id` (scripts/stack/kafka.sh: kafka, kafka-2, ...)."""
    return "kafka" if node_id == 1 else f"kafka-{node_id}"


def partition_of(admin, name, key):
    """The partition of `name` that holds records keyed `key` (the agents key by "src|dst"),
    found by reading the topic from its start."""
    c = kafka.consumer(
        {
            "group.id": "cluster-" + uuid.uuid4().hex,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    try:
        parts = admin.list_topics(name, timeout=10).topics[name].partitions
        c.assign([TopicPartition(name, p, 0) for p in parts])
        for m in kafka.records(c, kafka.within(60), poll_s=1):
            if m.key() and m.key().decode() == key:
                return m.partition()
    finally:
        c.close()
    raise AssertionError(f"no record keyed {key} in {name}")


def read_all(names, site):
    """Every message of topics `names` whose src starts with `site`, read from the beginning to
    the end of each partition: what Kafka holds. (A live consumer without committed offsets, such
    as a Recorder, skips records when its group coordinator moves off a dead broker: its
    partitions are assigned again and start at the latest offset.)"""
    c = kafka.consumer({"group.id": "cluster-" + uuid.uuid4().hex, "enable.auto.commit": False})
    out = []
    try:
        admin = kafka.admin()
        parts, ends = [], {}
        for name in names:
            for p in admin.list_topics(name, timeout=10).topics[name].partitions:
                lo, hi = c.get_watermark_offsets(TopicPartition(name, p), timeout=10)
                if hi > lo:
                    parts.append(TopicPartition(name, p, lo))
                    ends[(name, p)] = hi
        c.assign(parts)
        timed_out = kafka.within(120)
        for m in kafka.records(c, lambda: not ends or timed_out(), poll_s=1):
            msg = json.loads(m.value())
            if str(msg.get("src", "")).startswith(site):
                out.append((m.timestamp()[1] / 1000, msg))
            if m.offset() + 1 >= ends.get((m.topic(), m.partition()), 0):
                ends.pop((m.topic(), m.partition()), None)
        assert not ends, f"could not read to the end of {sorted(ends)}"
    finally:
        c.close()
    return out


def partition_md(admin, name, partition):
    """The partition's metadata, or None when the broker asked did not answer in 5 s (the client
    may ask the hung one: the caller asks again)."""
    try:
        return admin.list_topics(name, timeout=5).topics[name].partitions[partition]
    except KafkaException:
        return None


def leader(admin, name, partition):
    md = partition_md(admin, name, partition)
    return md.leader if md else -1


def isr(admin, name, partition):
    md = partition_md(admin, name, partition)
    return md.isrs if md else []


def agent_health(tb, sender):
    return json.loads(tb("agent-health", sender))


def agents_drained(tb, senders):
    """The agents' health once none holds an unacknowledged sample (or after 90 s)."""
    end = time.time() + 90
    while True:
        health = {s: agent_health(tb, s) for s in senders}
        if all(h["spool"]["depth_samples"] == 0 for h in health.values()) or time.time() > end:
            return health
        time.sleep(3)


def final_health(tb, sender):
    """The agent's last health line, logged as it stopped (key=value pairs): its counters once
    it sends nothing more (a health read while it runs misses what it sends after)."""
    path = (
        pathlib.Path(os.environ["LONGHAUL_STACK_DIR"])
        / "run"
        / f"testbed-{tb.prefix}"
        / f"agent-{sender}.log"
    )
    lines = [x for x in path.read_text().splitlines() if "msg=health status=" in x]
    assert lines, f"no health line in {path}"
    return dict(kv.split("=", 1) for kv in lines[-1].split() if "=" in kv)


class Story:
    def __init__(self, tag):
        self.tb = Namespaces(f"lhk{tag[:4]}", f"kcl{tag}")
        # one sender a link: dst-c's second sender (s2) adds runs, not a case, to this story
        self.tb.env.update(LONGHAUL_TESTBED_TARGETS_S2="d")
        self.job = f"longhaul-{self.tb.site}"
        self.events, self.raw, self.health, self.final = [], [], {}, {}
        self.killed = self.partition = self.respawned = None
        self.parallelism, self.taskmanagers = {}, set()
        self.failover_s = self.rejoin_s = None
        self.late = None  # records the job's windows dropped as late, read before its end
        self.restarts = None  # the job's restarts, read before its end
        self.led = []  # the agents' topics (partition 0) the hung broker led
        self.t_fault = self.t_heal = self.t_stop = 0.0


@pytest.fixture(scope="module")
def story():
    assert BROKERS >= 3, (
        "this test runs on a replicated cluster: LONGHAUL_KAFKA_BROKERS_N=3 make up (scripts/test-cluster.sh)"
    )
    s = Story(uuid.uuid4().hex[:6])
    # requests time out after 5 s (librdkafka's default is 60 s): a metadata request sent to the
    # hung broker is then asked of another one
    admin = AdminClient({**kafka.connection(), "socket.timeout.ms": 5000})
    s.tb("up")
    jid = lifecycle.submit(s.job, JOB_ARGS_CLUSTER)
    s.parallelism, s.taskmanagers = lifecycle.parallelism(jid), lifecycle.taskmanagers(jid)
    ev = Recorder([topic("events")], s.tb.site, committed=True)
    s1 = s.tb.src("s1")
    senders = SENDERS
    try:
        # 15 supervised programs (3 agents, each with a forwarder per broker), each start waiting
        # for RUNNING: past 120 s at 99 % CPU beside the install tier (2026-12-06)
        s.tb("agents-start", timeout=300)
        import_baselines(s.tb, {("s1", "dst-a"): NOMINAL["dst-a"]})
        log(f"healthy mesh for {HEALTHY_S}s")
        time.sleep(HEALTHY_S)
        tput = CONTRACT.own_topic(topic("raw.throughput"), "agent-" + s1)  # where s1 writes
        s.partition = partition_of(admin, tput, f"{s1}|dst-a")
        s.killed = leader(admin, tput, s.partition)
        assert s.killed > 0, f"no leader for {tput}[{s.partition}]"
        name = broker_program(s.killed)
        pid = stack.pid(name)
        assert pid, f"{name} is not running"
        # The broker hangs first (SIGSTOP: no heartbeat, no answer, its process alive, so the
        # supervisor leaves it be), and the link collapses with two brokers serving; then kill -9,
        # and the supervisor's respawn must catch up and rejoin.
        s.led = [t for t in agent_topics(s.tb) if leader(admin, t, 0) == s.killed]
        log(f"freeze {name} (pid {pid}), leader of {tput}[{s.partition}] and of {s.led}")
        t_freeze = time.time()
        os.kill(pid, signal.SIGSTOP)
        while leader(admin, tput, s.partition) in (s.killed, -1):
            assert time.time() - t_freeze < 3 * FAILOVER_MAX_S, (
                f"no new leader within {3 * FAILOVER_MAX_S} s of the broker's hang"
            )
            time.sleep(0.5)
        s.failover_s = time.time() - t_freeze
        record("cluster_failover_s", s.failover_s)
        s.t_fault = time.time()
        s.tb("collapse", "a", "10")
        log(f"new leader after {s.failover_s:.1f} s; dst-a collapsed with two brokers")
        assert wait_event(ev, "throughput_collapse", s1, "dst-a", s.t_fault, EVENT_WAIT_S), "no collapse"
        record("cluster_collapse_s", time.time() - s.t_fault)
        log(f"collapse raised; kill -9 {name}")
        t_kill = time.time()
        os.kill(pid, signal.SIGKILL)
        while not (stack.healthy("kafka") and s.killed in isr(admin, tput, s.partition)):
            assert time.time() - t_kill < 180, f"{name} not back in sync within 180 s of its kill"
            time.sleep(1)
        s.rejoin_s = time.time() - t_kill
        record("cluster_rejoin_s", s.rejoin_s)
        s.respawned = stack.pid(name) != pid
        s.t_heal = time.time()
        s.tb("heal")
        assert wait_event(ev, "throughput_recovery", s1, "dst-a", s.t_heal, EVENT_WAIT_S), "no recovery"
        s.health = agents_drained(s.tb, senders)
    finally:
        s.tb("agents-stop")
        s.final = {sender: final_health(s.tb, sender) for sender in senders}
        s.late = lifecycle.late_dropped(jid)
        s.restarts = lifecycle.restarts(jid)
        s.t_stop = time.time()
        lifecycle.cancel(s.job)
        s.tb("down")
    log(
        f"Telegraf caught up in {kafka.wait_caught_up(telegraf_groups()):.1f} s"
    )  # its last batch is in InfluxDB
    time.sleep(2)  # the recorder's last poll
    s.events = ev.snapshot()
    ev.close()
    s.raw = read_all(agent_topics(s.tb), s.tb.site)
    for _, e in s.events:
        log(f"event {e['kind']:20} {e['src']} → {e['dst']}: {e.get('message', '')}")
    return s


def test_every_topic_is_replicated_three_times_with_two_in_sync_needed():
    admin = kafka.admin()
    md = admin.list_topics(timeout=10)
    assert len(md.brokers) == BROKERS
    names = list(CONTRACT.topics.values())
    for name in names:
        for p in md.topics[name].partitions.values():
            assert len(p.replicas) == 3, f"{name}[{p.id}] has replicas {p.replicas}"
    configs = admin.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, n) for n in names])
    for res, fut in configs.items():
        assert fut.result()["min.insync.replicas"].value == "2", res


def test_the_job_ran_across_every_taskmanager(story):
    assert TASKMANAGERS >= 2, "scripts/test-cluster.sh runs two TaskManagers"
    assert max(story.parallelism.values()) == PARALLELISM, story.parallelism
    assert len(story.taskmanagers) == TASKMANAGERS, story.taskmanagers


def test_the_job_rode_out_the_brokers_hang_and_kill_without_a_restart(story):
    # Each source lists its topics every 10 s (every agent's own, by pattern); a listing asked of
    # the hung broker times out, and Flink's Kafka source fails the job on that (CI, 2026-11-28:
    # 4 restarts, and a run read after them came behind the watermark). PatientSubscriber keeps
    # the partitions known until a listing succeeds.
    assert story.restarts == 0, f"the job restarted {story.restarts} times (Flink's exception history)"


def test_leadership_moved_off_the_hung_broker_and_the_killed_one_rejoined(story):
    assert story.failover_s <= FAILOVER_MAX_S, f"the partition had no new leader for {story.failover_s:.1f} s"
    assert story.respawned, "the broker was not respawned after its kill"


def test_the_collapse_was_raised_once_and_recovered_once_against_the_old_baseline(story):
    s1 = story.tb.src("s1")
    mine = [e for _, e in story.events if e["src"] == s1 and e["dst"] == "dst-a"]
    collapses = [e for e in mine if e["kind"] == "throughput_collapse"]
    recoveries = [e for e in mine if e["kind"] == "throughput_recovery"]
    assert len(collapses) == 1 and len(recoveries) == 1, (collapses, recoveries)
    assert recoveries[0]["episode_id"] == collapses[0]["episode_id"]
    ev = collapses[0]["evidence"]
    assert ev["baseline_bps"] > 50e6 and ev["history_runs"] >= 5, f"a baseline relearnt: {collapses[0]}"


def test_no_event_was_raised_twice(story):
    keys = collections.Counter(
        (e["kind"], e["src"], e["dst"], e["ts"], e.get("episode_id"), e.get("protocol"))
        for _, e in story.events
    )
    assert [k for k, n in keys.items() if n > 1] == []


def test_every_acknowledged_sample_is_in_kafka_and_only_a_failed_send_was_doubled(story):
    """Each sample an agent had acknowledged is in Kafka; a second copy can only be a send the
    agent saw fail (its answer lost to the hung broker, the sample sent again: at least once,
    kafka.go), and the job drops such replays (the next test finds each run once in InfluxDB)."""
    copies = collections.Counter((m["src"], json.dumps(m, sort_keys=True)) for _, m in story.raw)
    distinct = collections.Counter(src for src, _ in copies)
    extra = collections.Counter({src: 0 for src in distinct})
    for (src, _), n in copies.items():
        extra[src] += n - 1
    for sender, h in story.health.items():
        src, k, last = story.tb.src(sender), h["kafka"], story.final[sender]
        acked = int(last["acked"])
        log(
            f"{src}: acked {acked} of {last['spooled']} spooled, in Kafka {distinct[src]} (+{extra[src]} copies), "
            f"failed sends {k['failed']}, spool {last['spool_samples']} left"
        )
        assert last["spool_samples"] == "0" and acked == int(last["spooled"]), (
            f"{src} stopped with samples unsent: {last}"
        )
        assert last["lost"] == "0" and last["dropped"] == "0" and h["samples"]["dead_lettered"] == 0, (
            last,
            h,
        )
        assert distinct[src] == acked, f"{src}: {acked} acknowledged, {distinct[src]} distinct in Kafka"
        assert extra[src] <= k["failed"], f"{src}: {extra[src]} copies, {k['failed']} failed sends"
    record("cluster_samples_checked", sum(distinct.values()))
    record("cluster_samples_copied", sum(extra.values()))
    assert sum(distinct.values()) > 200


def test_every_delivered_run_is_in_influxdb_exactly_once(story):
    checked, missing, doubled = runs_lost_or_doubled(story.raw, story.tb.site, story.t_stop)
    record("cluster_runs_checked", checked)
    assert checked > 50
    assert missing == {} and doubled == {}, (
        f"lost {missing}; more than delivered {doubled}; the job dropped {story.late} records as late; "
        f"the hung broker led {story.led}"
    )
