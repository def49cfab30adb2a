"""Each identity speaks only for itself, on the real stack: an agent writes its own raw topics
(`<raw topic>.agent-<name>`, made by `longhaul admin add-agent`), the running job dead-letters a
sample there whose src is another site's, naming both, and what reaches InfluxDB of the traces is
what the job validated (longhaul.paths). And an agent of the earlier layout (writing the shared raw
topics) is moved to its own topics in place, by `add-agent` run again, while the real agent
(`longhaul-probe run`) keeps publishing: nothing lost, nothing doubled."""

import json
import pathlib
import time
import uuid

import pytest
import yaml
from confluent_kafka import TopicPartition
from confluent_kafka.admin import (
    AclBinding,
    AclOperation,
    AclPermissionType,
    NewTopic,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from conftest import CONTRACT, kafka, now_ms, topic, wait_for_series
from local_agent import LocalAgent
from operator_cli import longhaul
from psbridge import Bridge, archive

ROOT = pathlib.Path(__file__).resolve().parents[2]
SENT_MS = CONTRACT.header("sent_ms")
EXAMPLE = ROOT / "ingest/schemas/examples/path_sample.v2/valid/reached-with-star-and-ecmp.json"


@pytest.fixture
def agent(tmp_path):
    """A fresh agent identity made as an operator makes one: (user, password file)."""
    name = "it-own-" + uuid.uuid4().hex[:8]
    pw = tmp_path / "agent.password"
    longhaul("admin", "add-agent", name, "--password-file", str(pw))
    yield "agent-" + name, str(pw)
    longhaul("admin", "remove-agent", name, "--delete-topics", check=False)


@pytest.fixture
def bridge(tmp_path):
    """A pScheduler bridge of its own made as an operator makes one, with its central list of one
    host: (user, password file, the host)."""
    name = "it-bridge-" + uuid.uuid4().hex[:8]
    pw, host = tmp_path / "bridge.password", f"ps.{name}.example"
    longhaul("admin", "add-bridge", name, "--hosts", host, "--password-file", str(pw))
    yield "psbridge-" + name, str(pw), host
    longhaul("admin", "remove-bridge", name, check=False)


def trace(src, ts):
    """A valid path_sample.v2 of src measured at ts (the contract's example, renamed)."""
    s = json.loads(EXAMPLE.read_text())
    s.update(src=src, dst=f"{src}-far", ts=ts, run_id=f"trace-{src}-{ts}")
    return s


def send_as(user, password_file, own, samples):
    """Writes samples to the agent's own topic as the agent does (its credential, sent_ms)."""
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=password_file)
    for s in samples:
        p.produce(
            own,
            key=f"{s['src']}|{s['dst']}",
            value=json.dumps(s).encode(),
            headers=[(SENT_MS, str(now_ms()).encode())],
        )
    assert p.flush(15) == 0, "Kafka did not take the agent's samples"


def test_an_agents_own_topics_are_bounded_in_bytes(agent):
    """What one identity keeps on the brokers is bounded, whatever its quota lets it write: each
    of its own topics' partitions carries the contract's retention.bytes (the shared topics' time
    besides), its own dead letters among them, and so does the shared dead-letter topic."""
    from confluent_kafka.admin import ConfigResource

    user, _ = agent
    own = [
        CONTRACT.own_topic(topic(k), user) for k in ("raw.throughput", "raw.path", "raw.rtt", "dead_letter")
    ]
    assert own[-1] == f"{topic('dead_letter')}.{user}"
    want = {t: str(CONTRACT.own["retention_bytes"]) for t in own}
    spec = yaml.safe_load((ROOT / "ingest/topics.yaml").read_text())["topics"]
    want |= {t["name"]: str(t["retention_bytes"]) for t in spec if t["name"] == topic("dead_letter")}
    assert len(want) == len(own) + 1, "topics.yaml bounds the dead-letter topic"
    resources = [ConfigResource(ConfigResource.Type.TOPIC, t) for t in want]
    admin = kafka.admin()  # held while its futures resolve
    got = {r.name: f.result()["retention.bytes"].value for r, f in admin.describe_configs(resources).items()}
    assert got == want


def test_the_job_takes_an_agents_own_src_and_dead_letters_another_sites(job, agent):
    user, pw = agent
    name, victim = user.removeprefix("agent-"), "it-victim-" + uuid.uuid4().hex[:8]
    own = CONTRACT.own_topic(topic("raw.path"), user)
    now = now_ms()
    send_as(user, pw, own, [trace(name, now - 2_000), trace(victim, now - 2_000)])

    # the job found the agent's topic, made after it started, within its discovery interval and
    # read it from its beginning: both samples
    # on the agent's own dead letters: its flood of forgeries evicts no one else's
    mine = CONTRACT.own_topic(topic("dead_letter"), user)
    dead = kafka.read_all(mine, lambda d: d["src"] == victim, 1, timeout_s=120, quiet_s=0)
    assert dead, f"no dead letter for the forged src {victim} on {mine} within 120 s"
    assert not kafka.read_all(topic("dead_letter"), lambda d: d["src"] == victim, 1, timeout_s=3, quiet_s=0)
    assert dead[0]["source_topic"] == own
    assert (
        dead[0]["reason"] == f'foreign_src: src "{victim}" on {own}, where {user} may write only src "{name}"'
    )
    # what Telegraf may write to InfluxDB: the agent's own trace, never the forged one
    # (once by this test's job, and again by any other job running on the stack, the session's
    # mesh job among them: each writes what it validated)
    valid = kafka.read_all(topic("paths"), lambda s: s["src"] in (name, victim), 1, timeout_s=120, quiet_s=5)
    assert {s["src"] for s in valid} == {name}, valid
    wait_for_series(
        f'SELECT count(/^hop_\\d+_rtt_ms$/) FROM "raw"."path_hops" WHERE "src" = \'{name}\'', timeout_s=60
    )
    assert not kafka.read_all(topic("paths"), lambda s: s["src"] == victim, 1, timeout_s=3, quiet_s=0)


def test_the_job_takes_a_bridges_listed_hosts_and_dead_letters_any_other(job, bridge):
    """A bridge's credential speaks for the hosts of its central list alone (issue 46): the list is
    the admin's (`add-bridge --hosts`, on the bridge.hosts topic), held by the job, not by the
    process the site runs. A sample written with the bridge's own credential for another host is
    a dead letter naming the bridge, and never reaches longhaul.paths."""
    user, pw, host = bridge
    other = "it-victim-" + uuid.uuid4().hex[:8]
    own = CONTRACT.own_topic(topic("raw.path"), user)
    assert own == f"{topic('raw.path')}.{user}"
    now = now_ms()
    send_as(user, pw, own, [trace(host, now - 2_000), trace(other, now - 2_000)])

    mine = CONTRACT.own_topic(topic("dead_letter"), user)
    dead = kafka.read_all(mine, lambda d: d["src"] == other, 1, timeout_s=120, quiet_s=0)
    assert dead, f"no dead letter for the unlisted src {other} on {mine} within 120 s"
    assert dead[0]["source_topic"] == own
    assert (
        dead[0]["reason"]
        == f'foreign_src: src "{other}" on {own}, where {user} may write only the 1 hosts of its list'
    )
    valid = kafka.read_all(topic("paths"), lambda s: s["src"] in (host, other), 1, timeout_s=120, quiet_s=5)
    assert {s["src"] for s in valid} == {host}, valid
    # the bridge's own credential cannot write the shared raw topics, nor another bridge's list
    p = kafka.producer({"message.timeout.ms": 10000}, user=user, password_file=pw)
    errors = []
    for t in (topic("raw.path"), topic("bridge.hosts")):
        p.produce(t, key=b"x", value=b"{}", on_delivery=lambda err, _m: errors.append(err))
    p.flush(15)
    assert len(errors) == 2 and all(e is not None and "AUTHORIZATION" in e.name() for e in errors), errors


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


@pytest.mark.parametrize("job", [["--max-links-per-src", "2"]], indirect=True)
def test_the_job_dead_letters_a_link_more_than_a_src_may_open(job, agent):
    """One identity cannot grow InfluxDB's series without bound by inventing dsts: past the job's
    cap on links per src (2 here, 1,000 by default), a sample for a new dst is a dead letter that
    says why, while the links it has keep going (far-0's second sample is no dead letter)."""
    user, pw = agent
    name = user.removeprefix("agent-")
    own = CONTRACT.own_topic(topic("raw.path"), user)
    now, runs = now_ms(), []
    for i, far in enumerate(("far-0", "far-1", "far-2", "far-0")):
        runs.append(trace(name, now - 4_000 + i))
        runs[-1].update(dst=f"{name}-{far}", run_id=f"trace-{name}-{i}")
    send_as(user, pw, own, runs)

    # (the session's mesh job reads the agent's topic too, with the default cap: it forwards all
    # four to longhaul.paths, so only the dead letters tell this job's verdict)
    mine = CONTRACT.own_topic(topic("dead_letter"), user)
    dead = kafka.read_all(mine, lambda d: d["src"] == name, 1, timeout_s=120, quiet_s=5)
    assert [d["dst"] for d in dead] == [f"{name}-far-2"], dead
    assert dead[0]["reason"].startswith(
        f'too_many_links: src "{name}" already reports on 2 dsts in this stream, the most one src may '
        "(--max-links-per-src 2)"
    ), dead[0]["reason"]


def test_a_sample_too_late_for_its_minute_is_a_dead_letter_of_its_own_writer(job, agent):
    """A sample that reaches the job after the watermark has passed its minute (a spool emptied
    late, an archiver's retries) is a dead letter with the reason, on its writer's own dead-letter
    topic like its other dead letters: one identity's late samples evict no one else's (issue 46)."""
    user, pw = agent
    name = user.removeprefix("agent-")
    own = CONTRACT.own_topic(topic("raw.path"), user)
    send_as(user, pw, own, [trace(name, now_ms() - 2_000)])
    # the job found the agent's topic (made after it started) and read it
    assert kafka.read_all(topic("paths"), lambda s: s["src"] == name, 1, timeout_s=120, quiet_s=0)
    for _ in range(4):  # live traces: the watermark reaches now - 1 s (the other partitions go idle)
        send_as(user, pw, own, [trace(name, now_ms())])
        time.sleep(1)
    late = trace(name, now_ms() - 300_000)  # sent now by a right clock: late, not skewed
    send_as(user, pw, own, [late])

    mine = CONTRACT.own_topic(topic("dead_letter"), user)
    dead = kafka.read_all(
        mine,
        lambda d: d["src"] == name and d["reason"].startswith("late for the link statistics"),
        1,
        timeout_s=90,
        quiet_s=0,
    )
    assert dead, f"no late dead letter of {name} on {mine} within 90 s"
    assert dead[0]["source_topic"] == own
    assert json.loads(dead[0]["payload"])["ts"] == late["ts"]
    assert not kafka.read_all(topic("dead_letter"), lambda d: d["src"] == name, 1, timeout_s=3, quiet_s=0)


# --- moving an agent of the earlier layout to its own topics -------------------------------------


def earlier_layout(user, password):
    """The agent user as the release before made it: its SCRAM credential, and the rights to write
    every raw topic by prefix, the dead letters, and read probe requests in its own group. It has no
    topics of its own."""
    adm = kafka.admin()
    cred = UserScramCredentialUpsertion(
        user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password.encode()
    )
    for f in adm.alter_user_scram_credentials([cred]).values():
        f.result(30)
    acl = lambda kind, name, pattern, op: AclBinding(  # noqa: E731
        kind, name, pattern, f"User:{user}", "*", op, AclPermissionType.ALLOW
    )
    topic_, lit, pre = ResourceType.TOPIC, ResourcePatternType.LITERAL, ResourcePatternType.PREFIXED
    acls = [acl(topic_, "longhaul.raw.", pre, op) for op in (AclOperation.WRITE, AclOperation.DESCRIBE)]
    acls += [acl(topic_, topic("dead_letter"), lit, op) for op in (AclOperation.WRITE, AclOperation.DESCRIBE)]
    acls += [
        acl(topic_, topic("probe_requests"), lit, op) for op in (AclOperation.READ, AclOperation.DESCRIBE)
    ]
    acls.append(acl(ResourceType.GROUP, f"longhaul-{user}", lit, AclOperation.READ))
    for f in adm.create_acls(acls).values():
        f.result(30)
    assert not [t for t in adm.list_topics(timeout=30).topics if t.endswith("." + user)]


def own_topics_layout_without_dead_letters(user, password):
    """The agent user as release 0.9 made it: its credential, its own raw topics and the rights to
    write them, and the right to write the shared dead letters, which had no topic of its own."""
    adm = kafka.admin()
    cred = UserScramCredentialUpsertion(
        user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password.encode()
    )
    for f in adm.alter_user_scram_credentials([cred]).values():
        f.result(30)
    own = [CONTRACT.own_topic(t, user) for t in CONTRACT.raw_topics()]
    for f in adm.create_topics([NewTopic(t, 1, 1) for t in own]).values():
        f.result(30)
    acls = [
        AclBinding(
            ResourceType.TOPIC,
            t,
            ResourcePatternType.LITERAL,
            f"User:{user}",
            "*",
            op,
            AclPermissionType.ALLOW,
        )
        for t in [*own, topic("dead_letter")]
        for op in (AclOperation.WRITE, AclOperation.DESCRIBE)
    ]
    for f in adm.create_acls(acls).values():
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
