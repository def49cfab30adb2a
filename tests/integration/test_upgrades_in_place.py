"""Upgrades of a running installation, rehearsed on the real stack as docs/operations.md writes
them: an agent of the earlier layout (writing the shared raw topics) moved to its own topics in
place by `add-agent` run again, while the real agent (`longhaul-probe run`) keeps publishing; a
bridge of the shared psbridge user moved to an identity of its own (`add-bridge`) with results in
its spool; an agent of 0.9 whose dead letters move to a topic of its own, the job's and (the real
agent, upgraded first) its own. Nothing lost, nothing doubled."""

import json
import shutil
import time
import uuid

from confluent_kafka import TopicPartition
from confluent_kafka.admin import AclOperation, NewTopic, ResourcePatternType, ResourceType
from conftest import CONTRACT, kafka, now_ms, topic
from identities import send_as, trace, user_of_a_release
from local_agent import ROOT, LocalAgent
from operator_cli import longhaul
from psbridge import Bridge, archive


def fresh_trace(src, dst):
    """pScheduler's archive of a traceroute from src to dst, run now (its run id new each time)."""
    msg = archive("path", "traceroute-ecmp-3-hops", src, dst)
    msg["schedule"]["start"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 5))
    return msg


def test_a_bridge_moves_to_its_own_identity_in_place_losing_and_doubling_nothing(job, tmp_path):
    """docs/operations.md, *Giving each bridge its own identity*, step 2 on the real stack with the
    real bridge: a bridge of the shared psbridge user, holding results it took in its spool (it
    cannot reach the brokers), is given its own identity (`add-bridge NAME --hosts`) and restarted
    as psbridge-NAME on the same spool. What it had spooled and what it takes after go to its own
    topics, each sample once, none to the shared ones, and the job takes them as its listed host's."""
    name = "it-bmove-" + uuid.uuid4().hex[:8]
    user, pw = "psbridge-" + name, tmp_path / "bridge.password"
    src, dst = f"ps.{name}.example", f"{name}-far"
    results = [fresh_trace(src, dst) for _ in range(4)]
    bridge = Bridge(tmp_path, bootstrap="127.0.0.1:9")  # the shared user, and no broker: it spools
    bridge.start(await_kafka=False)
    try:
        for msg in results[:3]:
            r = bridge.post(msg)
            assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
        bridge.wait(lambda h: h["samples"] >= 3, "the three results' samples spooled")
    finally:
        bridge.stop()
    longhaul("admin", "add-bridge", name, "--hosts", src, "--password-file", str(pw))
    try:
        bridge.user, bridge.password_file, bridge.bootstrap = user, pw, None
        bridge.write_config()
        bridge.start()
        try:
            r = bridge.post(results[3])
            assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
            deadline = time.time() + 60
            while (spool := bridge.full_health()["spool"])["depth_samples"] > 0:
                assert time.time() < deadline, f"the spool did not drain into Kafka within 60 s: {spool}"
                time.sleep(0.5)
        finally:
            bridge.stop()
        runs = sorted("pscheduler-" + m["id"] for m in results)
        own = CONTRACT.own_topic(topic("raw.path"), user)
        got = kafka.read_all(own, lambda s: s["src"] == src, len(runs), timeout_s=60)
        assert sorted(s["run_id"] for s in got) == runs, f"{own}: {[s['run_id'] for s in got]}"
        assert not kafka.read_all(topic("raw.path"), lambda s: s["src"] == src, 1, timeout_s=3, quiet_s=0)
        # every job running reads the bridge's topics (the session's mesh job too): each forwards them
        valid = kafka.read_all(topic("paths"), lambda s: s["src"] == src, len(runs), timeout_s=120, quiet_s=5)
        assert {s["run_id"] for s in valid} == set(runs), f"the job validated {len(valid)} of {len(runs)}"
    finally:
        longhaul("admin", "remove-bridge", name, check=False)


WRITE = (AclOperation.WRITE, AclOperation.DESCRIBE)
TOPIC, LITERAL, PREFIXED = ResourceType.TOPIC, ResourcePatternType.LITERAL, ResourcePatternType.PREFIXED


def earlier_layout(user, password):
    """The agent user as the release before made it: its SCRAM credential, and the rights to write
    every raw topic by prefix, the dead letters, and read probe requests in its own group. It has no
    topics of its own."""
    adm = user_of_a_release(
        user,
        password,
        [(TOPIC, "longhaul.raw.", PREFIXED, op) for op in WRITE]
        + [(TOPIC, topic("dead_letter"), LITERAL, op) for op in WRITE]
        + [(TOPIC, topic("probe_requests"), LITERAL, op) for op in (AclOperation.READ, AclOperation.DESCRIBE)]
        + [(ResourceType.GROUP, f"longhaul-{user}", LITERAL, AclOperation.READ)],
    )
    assert not [t for t in adm.list_topics(timeout=30).topics if t.endswith("." + user)]


def own_topics_layout_without_dead_letters(user, password):
    """The agent user as release 0.9 made it: its credential, its own raw topics and the rights to
    write them, and the right to write the shared dead letters, which had no topic of its own."""
    own = [CONTRACT.own_topic(t, user) for t in CONTRACT.raw_topics()]
    adm = user_of_a_release(
        user, password, [(TOPIC, t, LITERAL, op) for t in [*own, topic("dead_letter")] for op in WRITE]
    )
    for f in adm.create_topics([NewTopic(t, 1, 1) for t in own]).values():
        f.result(30)


def dead_letter_of(src, topics, timeout_s):
    """The topic of `topics` that holds a dead letter naming src, once one does (None after timeout_s)."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        for t in topics:
            if kafka.read_all(t, lambda d: d.get("src") == src, 1, timeout_s=3, quiet_s=0):
                return t
    return None


def test_an_agents_dead_letters_move_to_its_own_topic_with_add_agent_again(job, tmp_path):
    """docs/operations.md, *Each identity's own dead letters*, on the real stack: an agent user of
    release 0.9 (its own raw topics; its dead letters on the shared topic). The running job writes
    the dead letter of a foreign src on its topic to the shared topic, its own being absent;
    `add-agent` again with the agent's password file makes its own and takes the shared one's
    right away; from then on (the job looks for the topic again at most once a minute) its dead
    letters go to its own topic. Every dead letter is in one of the two: none is lost."""
    name = "it-dl-" + uuid.uuid4().hex[:8]
    user, pw = "agent-" + name, tmp_path / "agent.password"
    pw.write_text(uuid.uuid4().hex)
    pw.chmod(0o600)
    own_raw = CONTRACT.own_topic(topic("raw.path"), user)
    own_dead, shared_dead = CONTRACT.own_topic(topic("dead_letter"), user), topic("dead_letter")
    own_topics_layout_without_dead_letters(user, pw.read_text())
    try:
        first = "it-victim-" + uuid.uuid4().hex[:8]
        send_as(user, str(pw), own_raw, [trace(first, now_ms() - 2_000)])
        assert dead_letter_of(first, [shared_dead], 120) == shared_dead, "no dead letter on the shared topic"

        longhaul("admin", "add-agent", name, "--password-file", str(pw))
        p = kafka.producer({"message.timeout.ms": 10000}, user=user, password_file=str(pw))
        result = {}
        p.produce(shared_dead, key=b"x", value=b"{}", on_delivery=lambda err, _m: result.update(err=err))
        p.flush(20)
        assert result.get("err") is not None, "add-agent left the agent its write on the shared dead letters"

        went, deadline = [], time.time() + 150
        while not went or went[-1][1] != own_dead:
            assert time.time() < deadline, f"no dead letter on {own_dead} within 150 s: {went}"
            victim = "it-victim-" + uuid.uuid4().hex[:8]
            send_as(user, str(pw), own_raw, [trace(victim, now_ms() - 2_000)])
            went.append((victim, dead_letter_of(victim, [own_dead, shared_dead], 30)))
        assert all(t is not None for _, t in went), f"a dead letter lost: {went}"
    finally:
        longhaul("admin", "remove-agent", name, "--delete-topics", check=False)


def schemas_refusing_ping(folder):
    """The contract's schemas, but for an rtt sample's tool, which may only be pScheduler: every
    ping run of the real agent is then a sample its own schemas refuse, a dead letter of its own."""
    shutil.copytree(ROOT / "ingest" / "schemas", folder)
    for f in folder.glob("rtt_sample.*.schema.json"):
        schema = json.loads(f.read_text())
        schema["properties"]["tool"] = {"enum": ["pscheduler"]}
        f.write_text(json.dumps(schema))
    return folder


def test_an_agent_upgraded_before_add_agent_holds_its_dead_letters_until_their_topic_exists(tmp_path):
    """docs/operations.md, *Each identity's own dead letters*, the agent's side on the real stack:
    the upgraded agent (`longhaul-probe run`) of an agent user of 0.9 (its own raw topics, the
    shared dead letters, no dead-letter topic of its own) makes dead letters of its own (every run
    its schemas refuse). Kafka refuses them, on a topic the user has no right to yet: the agent says
    it is refused and holds them in its spool. `add-agent` again with its password file makes the
    topic; within the agent's re-check its spool drains there, each dead letter once, none on the
    shared topic, which the agent may no longer write."""
    name = "it-adl-" + uuid.uuid4().hex[:8]
    user, pw = "agent-" + name, tmp_path / "agent.password"
    pw.write_text(uuid.uuid4().hex)
    pw.chmod(0o600)
    own_dead, shared_dead = CONTRACT.own_topic(topic("dead_letter"), user), topic("dead_letter")
    own_topics_layout_without_dead_letters(user, pw.read_text())
    mesh = SELF_RTT.format(name=name)
    probe = LocalAgent(tmp_path, name, pw, mesh, schemas_dir=schemas_refusing_ping(tmp_path / "schemas"))
    try:
        held = probe.wait(
            lambda h: h["kafka"]["state"] == "refused" and h["spool"]["depth_samples"] >= 3,
            "its dead letters refused and held in its spool",
        )
        assert held["samples"]["dead_lettered"] >= 3 and held["kafka"]["acked"] == 0, held
        assert held["kafka"]["reason"].startswith(own_dead + ": not authorized"), held["kafka"]
        longhaul("admin", "add-agent", name, "--password-file", str(pw))
        after = probe.wait(
            lambda h: (
                h["spool"]["depth_samples"] == 0
                and h["kafka"]["acked"] >= held["samples"]["dead_lettered"] + 3
            ),
            "its spool drained into its own dead letters, and runs after it",
            timeout_s=90,
        )
    finally:
        probe.stop()
    try:
        assert after["kafka"]["state"] == "connected" and after["spool"]["dropped_total"] == 0, after
        got = kafka.read_all(own_dead, lambda d: d["src"] == name, after["kafka"]["acked"], timeout_s=60)
        runs = [json.loads(d["payload"])["run_id"] for d in got]
        assert len(runs) == len(set(runs)), "a dead letter doubled"
        assert len(runs) >= after["samples"]["dead_lettered"] - after["kafka"]["in_flight"], (
            f"{len(runs)} of {after['samples']['dead_lettered']} dead letters"
        )
        assert all("pscheduler" in d["reason"] for d in got), got[0]["reason"]
        assert not kafka.read_all(shared_dead, lambda d: d["src"] == name, 1, timeout_s=3, quiet_s=0)
        print(
            f"\nheld while refused: {held['spool']['depth_samples']} dead letters; "
            f"{len(runs)} in {own_dead} after add-agent, none doubled, none on the shared topic"
        )
    finally:
        longhaul("admin", "remove-agent", name, "--delete-topics", check=False)


# an rtt probe to itself every second
SELF_RTT = """targets:
  - {{name: {name}-self, address: 127.0.0.1}}
probes:
  - {{id: rtt, kind: rtt, interval: 1s, jitter: 0s, params: {{count: 1, timeout: 1s}}}}
"""


def test_an_agent_moves_to_its_own_topics_in_place_losing_and_doubling_nothing(tmp_path):
    name = "it-mig-" + uuid.uuid4().hex[:8]
    user, pw = "agent-" + name, tmp_path / "agent.password"
    pw.write_text(uuid.uuid4().hex)
    pw.chmod(0o600)
    earlier_layout(user, pw.read_text())
    probe = LocalAgent(tmp_path, name, pw, SELF_RTT.format(name=name))
    try:
        # the upgraded agent writes its own topics, which the earlier layout lacks: it keeps its
        # samples in its spool meanwhile
        before = probe.wait(
            lambda h: h["samples"]["spooled"] >= 5 and h["spool"]["depth_samples"] >= 5, "spooling"
        )
        assert before["kafka"]["acked"] == 0, before["kafka"]
        # the upgrade step: add-agent again makes its topics and narrows its rights to them
        longhaul("admin", "add-agent", name, "--password-file", str(pw))
        after = probe.wait(
            lambda h: (
                h["spool"]["depth_samples"] == 0 and h["kafka"]["acked"] >= before["samples"]["spooled"] + 5
            ),
            "the spool drained into its own topic, and runs after it",
            timeout_s=90,
        )
    finally:
        probe.stop()
    try:
        own = CONTRACT.own_topic(topic("raw.rtt"), user)
        got = kafka.read_all(own, lambda s: s["src"] == name, after["samples"]["spooled"], timeout_s=60)
        runs = [s["run_id"] for s in got]
        assert len(runs) == len(set(runs)), "a sample doubled"
        assert len(runs) >= after["samples"]["spooled"], (
            f"{len(runs)} of {after['samples']['spooled']} samples"
        )
        # the shared topic got none of them, and the agent cannot write it any more
        p = kafka.producer({"message.timeout.ms": 10000}, user=user, password_file=str(pw))
        result = {}
        p.produce(
            topic("raw.rtt"), key=b"a|b", value=b"{}", on_delivery=lambda err, _m: result.update(err=err)
        )
        p.flush(20)
        assert result.get("err") is not None, "the moved agent still writes the shared raw topic"
        # a site gone for good: its records go, its topics stay, for a job restored from a
        # checkpoint that names their partitions must find them (else it restarts without end)
        out = longhaul("admin", "remove-agent", name, "--delete-topics")
        assert f"emptied topic {own}" in out, out
        c = kafka.consumer({"group.id": "it-" + uuid.uuid4().hex})
        low, high = c.get_watermark_offsets(TopicPartition(own, 0), timeout=30)
        c.close()
        assert high >= len(runs) and low == high, f"{own}: records from {low} to {high}"
        print(
            f"\nmoved in place: {before['samples']['spooled']} samples spooled before add-agent, "
            f"{len(runs)} in {own}, none doubled"
        )
    finally:
        longhaul("admin", "remove-agent", name, "--delete-topics", check=False)
