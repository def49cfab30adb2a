"""Kafka refuses what it must, on the real secured broker: a plaintext client, a wrong SCRAM
password, an agent writing a result topic or reading raw samples, the operator reading raw
samples, an agent joining another agent's consumer group, the Flink job's identity joining
Telegraf's or an agent's group, and an agent revoked by `longhaul admin remove-agent` — each
refusal with its message.
What the same identities may do is checked beside it, so a refusal is the ACL's, not an outage."""

import os
import pathlib
import subprocess
import time
import uuid

import pytest
from confluent_kafka import KafkaError
from confluent_kafka.admin import (
    AclBinding,
    AclOperation,
    AclPermissionType,
    ResourcePatternType,
    ResourceType,
)
from conftest import kafka, topic

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "bin" / "longhaul"
SECRETS = pathlib.Path(os.environ.get("LONGHAUL_SECRETS_DIR", ROOT / ".stack" / "run" / "secrets"))


def longhaul(*args, env=None):
    return subprocess.run(
        [str(CLI), *args], capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})}
    )


@pytest.fixture
def agent(tmp_path):
    """A fresh agent identity made as an operator makes one: (user, password file)."""
    name = "it-" + uuid.uuid4().hex[:8]
    pw = tmp_path / "agent.password"
    r = longhaul("admin", "add-agent", name, "--password-file", str(pw))
    assert r.returncode == 0, r.stderr
    assert "user: agent-" + name in r.stdout and pw.read_text() not in r.stdout + r.stderr
    yield "agent-" + name, str(pw)
    longhaul("admin", "remove-agent", name)


def produce_error(producer, to_topic, value=b"{}"):
    """Produces one record and returns the delivery error (None when delivered)."""
    result = {}
    producer.produce(to_topic, key=b"a|b", value=value, on_delivery=lambda err, msg: result.update(err=err))
    producer.flush(30)
    assert "err" in result, "no delivery report within 30 s"
    return result["err"]


def refused_login(user, password_file):
    """The client-level errors of a producer that tries to log in as user: librdkafka reports a
    refused login there (the record itself only times out)."""
    errors = []
    p = kafka.producer(
        {"message.timeout.ms": 10000, "error_cb": errors.append}, user=user, password_file=password_file
    )
    produce_error(p, topic("raw.rtt"))
    return [e for e in errors if e.code() == KafkaError._AUTHENTICATION]


def group_refused(user, password_file, group, from_topic):
    """Whether user may not consume from_topic in group: the group's refusal, or None once its
    consumer has joined (an assignment) without one."""
    c = kafka.consumer(
        {"group.id": group, "auto.offset.reset": "latest"}, user=user, password_file=password_file
    )
    assigned = []
    c.subscribe([from_topic], on_assign=lambda _c, parts: assigned.extend(parts))
    deadline = time.time() + 30
    try:
        while time.time() < deadline and not assigned:
            m = c.poll(0.5)
            if m is not None and m.error():
                return m.error()
        assert assigned, f"{user} in {group}: neither refused nor assigned within 30 s"
        return None
    finally:
        c.close()


def consume_error(consumer, from_topic, timeout_s=30):
    """The first error a consumer of from_topic gets (None if it reads without one)."""
    consumer.subscribe([from_topic])
    deadline = time.time() + timeout_s
    try:
        while time.time() < deadline:
            m = consumer.poll(1.0)
            if m is not None and m.error():
                return m.error()
        return None
    finally:
        consumer.close()


def test_a_plaintext_client_is_refused_on_the_client_port():
    r = longhaul("tail", "--for", "5s", env={"LONGHAUL_KAFKA_SECURITY": "plaintext"})
    assert r.returncode == 1
    assert "tls endpoint" in r.stderr, r.stderr


def test_a_wrong_password_is_refused_and_said(tmp_path):
    wrong = tmp_path / "wrong.password"
    wrong.write_text("not-the-password")
    r = longhaul(
        "tail",
        "--for",
        "5s",
        env={"LONGHAUL_KAFKA_USER": "operator", "LONGHAUL_KAFKA_PASSWORD_FILE": str(wrong)},
    )
    assert r.returncode == 1
    assert "authentication refused: wrong SCRAM user or password" in r.stderr, r.stderr
    assert "not-the-password" not in r.stderr
    refusals = refused_login("operator", str(wrong))
    assert refusals and "Authentication failed" in refusals[0].str(), refusals


def test_the_operator_reads_results_but_not_raw_samples():
    ok = longhaul(
        "tail",
        "--for",
        "3s",
        env={
            "LONGHAUL_KAFKA_USER": "operator",
            "LONGHAUL_KAFKA_PASSWORD_FILE": str(SECRETS / "kafka-operator.password"),
        },
    )
    assert ok.returncode == 0, ok.stderr
    c = kafka.consumer(
        {"group.id": "longhaul-operator-it", "auto.offset.reset": "earliest"},
        user="operator",
        password_file=str(SECRETS / "kafka-operator.password"),
    )
    err = consume_error(c, topic("raw.throughput"))
    assert err is not None and err.code() in (
        KafkaError.TOPIC_AUTHORIZATION_FAILED,
        KafkaError.GROUP_AUTHORIZATION_FAILED,
    ), err


def test_an_agent_writes_raw_samples_and_nothing_else(agent):
    user, pw = agent
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=pw)
    assert produce_error(p, topic("raw.throughput"), b'{"schema":"security-test"}') is None
    err = produce_error(p, topic("events"))
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    # it reads the job's probe requests (test_confirmation), and cannot ask for a run itself
    err = produce_error(p, topic("probe_requests"))
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    c = kafka.consumer(
        {"group.id": f"longhaul-{user}", "auto.offset.reset": "earliest"}, user=user, password_file=pw
    )
    err = consume_error(c, topic("raw.throughput"))
    assert err is not None and err.code() in (
        KafkaError.TOPIC_AUTHORIZATION_FAILED,
        KafkaError.GROUP_AUTHORIZATION_FAILED,
    ), err


def test_a_revoked_agent_is_refused_at_once(agent):
    user, pw = agent
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=pw)
    assert produce_error(p, topic("raw.rtt"), b'{"schema":"security-test"}') is None
    r = longhaul("admin", "remove-agent", user)
    assert r.returncode == 0 and "revoked" in r.stdout, r.stderr
    # the connection it already has: its next request is refused (the ACLs are gone)
    err = produce_error(p, topic("raw.rtt"))
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    # a new connection: its credential is one no one knows
    refusals = refused_login(user, pw)
    assert refusals and "Authentication failed" in refusals[0].str(), refusals


def test_a_password_rotates_without_restarting_the_broker(agent, tmp_path):
    user, pw = agent
    old = pathlib.Path(pw).read_text()
    r = longhaul("admin", "rotate", user, "--password-file", pw)
    assert r.returncode == 0, r.stderr
    assert pathlib.Path(pw).read_text() != old and old not in r.stdout + r.stderr
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=pw)
    assert produce_error(p, topic("raw.rtt"), b'{"schema":"security-test"}') is None
    stale = tmp_path / "old.password"
    stale.write_text(old)
    refusals = refused_login(user, str(stale))
    assert refusals and "Authentication failed" in refusals[0].str(), refusals


def test_an_agent_takes_probe_requests_in_its_own_group_only(agent):
    user, pw = agent
    # its own group (collectors/config OwnGroup), literally
    assert group_refused(user, pw, f"longhaul-{user}", topic("probe_requests")) is None
    # another agent's: it would take that agent's requests
    err = group_refused(user, pw, "longhaul-agent-someone-else", topic("probe_requests"))
    assert err is not None and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED, err


def test_the_jobs_identity_cannot_join_telegrafs_or_an_agents_group():
    flink = ("flink", str(SECRETS / "kafka-flink.password"))
    assert group_refused(*flink, "longhaul-it-job-" + uuid.uuid4().hex[:6], topic("raw.rtt")) is None
    for group in ("longhaul-telegraf-path", "longhaul-agent-it", "longhaul-psbridge"):
        err = group_refused(*flink, group, topic("raw.rtt"))
        assert err is not None and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED, (group, err)


def test_granting_an_agent_again_drops_the_rights_an_upgrade_took_away(agent):
    """Before 0.9 every agent could use any group prefixed longhaul-agent-: re-granting (as
    `longhaul setup` and `admin add-agent` do) deletes that ACL, keeping the agent's own group."""
    user, pw = agent
    old = AclBinding(
        ResourceType.GROUP,
        "longhaul-agent-",
        ResourcePatternType.PREFIXED,
        f"User:{user}",
        "*",
        AclOperation.READ,
        AclPermissionType.ALLOW,
    )
    adm = kafka.admin()
    for f in adm.create_acls([old]).values():
        f.result(30)
    assert group_refused(user, pw, "longhaul-agent-someone-else", topic("probe_requests")) is None
    r = longhaul("admin", "add-agent", user.removeprefix("agent-"), "--password-file", pw)
    assert r.returncode == 0, r.stderr
    err = group_refused(user, pw, "longhaul-agent-someone-else", topic("probe_requests"))
    assert err is not None and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED, err
    assert group_refused(user, pw, f"longhaul-{user}", topic("probe_requests")) is None
