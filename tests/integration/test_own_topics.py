"""Each identity speaks only for itself, on the real stack: an agent writes its own raw topics
(`<raw topic>.agent-<name>`, made by `longhaul admin add-agent`), the running job dead-letters a
sample there whose src is another site's, naming both, and what reaches InfluxDB of the traces is
what the job validated (longhaul.paths). Moving an identity of an earlier release to its own topics:
test_upgrades_in_place.py."""

import json
import time
import uuid

import pytest
import yaml
from conftest import CONTRACT, influx_query, kafka, now_ms, topic, wait_for_series
from identities import ROOT, send_as, trace, with_src_given_twice
from operator_cli import longhaul


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
    """An agent's credential speaks for its own src alone: a trace of another site's src on its
    topic is a dead letter naming both, and so is one that gives "src" twice, another site's first
    and its own last (which Jackson would read as the last and Telegraf as the first): neither
    reaches longhaul.paths nor InfluxDB (issue 46, "two readings of one message")."""
    user, pw = agent
    name, victim = user.removeprefix("agent-"), "it-victim-" + uuid.uuid4().hex[:8]
    twice = "it-twice-" + uuid.uuid4().hex[:8]
    own = CONTRACT.own_topic(topic("raw.path"), user)
    now = now_ms()
    forged = trace(name, now - 2_000) | {"run_id": f"trace-twice-{now}"}
    send_as(
        user,
        pw,
        own,
        [trace(name, now - 2_000), trace(victim, now - 2_000), with_src_given_twice(forged, twice)],
    )

    # the job found the agent's topic, made after it started, within its discovery interval and
    # read it from its beginning: all three samples
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
    # the key given twice: a dead letter of its writer's, naming the key, and neither copy's link
    # anywhere downstream
    dead = kafka.read_all(mine, lambda d: f'"{twice}"' in d["payload"], 1, timeout_s=30, quiet_s=0)
    assert dead and dead[0]["reason"].startswith("a key given twice: Duplicate field 'src'"), dead
    assert not [s for s in valid if s["run_id"] == forged["run_id"]], valid
    assert not influx_query(
        f'SELECT count(/^hop_\\d+_rtt_ms$/) FROM "raw"."path_hops" WHERE "src" = \'{twice}\''
    )


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
