"""Kafka refuses what it must, on the real secured broker: a plaintext client, a wrong SCRAM
password, an agent writing a result topic or reading raw samples, the operator reading raw
samples, an agent joining another agent's consumer group, the Flink job's identity joining
Telegraf's or an agent's group, and an agent revoked by `longhaul admin remove-agent` — each
refusal with its message.
What the same identities may do is checked beside it, so a refusal is the ACL's, not an outage."""

import json
import os
import pathlib
import subprocess
import time
import uuid

import pytest
from confluent_kafka import KafkaError, Producer
from confluent_kafka.admin import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    ResourcePatternType,
    ResourceType,
)
from conftest import kafka, topic
from longhaul_contract import CONTRACT

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
    assert f"kafka user agent-{name} quota: produce {1 << 20} B/s, fetch {256 << 10} B/s" in r.stderr, (
        r.stderr
    )
    yield "agent-" + name, str(pw)
    longhaul("admin", "remove-agent", name, "--delete-topics")


def own(user, role):
    """The topic of role user writes (an agent's own raw topic, contract own_topics)."""
    return CONTRACT.own_topic(topic(role), user)


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
    err = kafka.first_error(c, topic("raw.throughput"))
    assert err is not None and err.code() in (
        KafkaError.TOPIC_AUTHORIZATION_FAILED,
        KafkaError.GROUP_AUTHORIZATION_FAILED,
    ), err


def test_an_agent_writes_its_own_raw_topics_and_nothing_else(agent):
    user, pw = agent
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=pw)
    # every raw topic of the contract, so a kind added without its grant fails here
    for t in CONTRACT.raw_topics() + [topic("dead_letter")]:
        assert (
            produce_error(
                p, CONTRACT.own_topic(t, user), b'{"schema":"security-test","src":"security-test","dst":"x"}'
            )
            is None
        ), t
    # not the shared raw topics (the bridge's), nor another agent's: the topic proves the writer;
    # nor the shared dead letters or another's: its bad input evicts its own dead letters only
    others = [topic("raw.throughput"), topic("dead_letter")]
    others += [CONTRACT.own_topic(topic(r), "agent-someone-else") for r in ("raw.throughput", "dead_letter")]
    for other in others:
        err = produce_error(p, other)
        assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, (other, err)
    err = produce_error(p, topic("events"))
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    # nor history: only the importer writes it, so no agent can mark its samples as history
    for history in CONTRACT.history_topics():
        err = produce_error(p, history)
        assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, (history, err)
    # it reads the job's probe requests (test_confirmation), and cannot ask for a run itself
    err = produce_error(p, topic("probe_requests"))
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    # nor the keys the pScheduler bridges share: one written there would have them drop a result
    err = produce_error(p, topic("psbridge.seen"))
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    c = kafka.consumer(
        {"group.id": f"longhaul-{user}", "auto.offset.reset": "earliest"}, user=user, password_file=pw
    )
    err = kafka.first_error(c, own(user, "raw.throughput"))
    assert err is not None and err.code() in (
        KafkaError.TOPIC_AUTHORIZATION_FAILED,
        KafkaError.GROUP_AUTHORIZATION_FAILED,
    ), err


def dead_letters(n, size, src):
    """n well-formed dead letters of about size bytes each, of link src|src (readers of the topic
    filter by src: these are no one else's)."""
    for i in range(n):
        yield json.dumps(
            {
                "schema": "dead_letter",
                "version": 1,
                "src": src,
                "dst": src,
                "probe_id": "quota",
                "ts": int(time.time() * 1000),
                "source_topic": topic("raw.throughput"),
                "reason": f"quota test {i}",
                "payload": "x" * size,
            }
        ).encode()


def throttled_ms(user, pw, src, n=8, size=64 << 10):
    """What the brokers held back (ms, summed over their throttle reports) while user sent n
    dead letters of size bytes as fast as it could."""
    throttles = []
    p = kafka.producer(
        {"message.timeout.ms": 60000, "throttle_cb": lambda ev: throttles.append(ev.throttle_time)},
        user=user,
        password_file=pw,
    )
    for value in dead_letters(n, size, src):
        p.produce(own(user, "dead_letter"), key=f"{src}|{src}".encode(), value=value)
        p.poll(0)
    assert p.flush(60) == 0, "the brokers did not take every record: a quota slows down, never refuses"
    p.poll(1)  # the last responses' throttle reports
    return sum(throttles) * 1000


def test_an_agents_quota_slows_it_down_alone(agent, tmp_path):
    """add-agent sets the agent's quota (1 MiB/s by default, printed); an agent over its own is
    slowed down by the broker, and loses nothing; another agent's traffic is not."""
    user, pw = agent
    slow = "it-" + uuid.uuid4().hex[:8]
    slow_pw = tmp_path / "slow.password"
    r = longhaul("admin", "add-agent", slow, "--password-file", str(slow_pw), "--produce-quota", "16384")
    try:
        assert r.returncode == 0, r.stderr
        assert f"kafka user agent-{slow} quota: produce 16384 B/s" in r.stderr, r.stderr
        # 512 KiB at once: 32 times the slow agent's 16 KiB/s, and well under the default's
        # 1 MiB/s over Kafka's 10 s of quota samples
        assert throttled_ms(f"agent-{slow}", str(slow_pw), f"it-quota-{slow}") > 0
        assert throttled_ms(user, pw, f"it-quota-{user}") == 0
    finally:
        longhaul("admin", "remove-agent", slow, "--delete-topics")


def test_a_revoked_agent_is_refused_at_once(agent):
    user, pw = agent
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=pw)
    assert (
        produce_error(
            p, own(user, "raw.rtt"), b'{"schema":"security-test","src":"security-test","dst":"security-test"}'
        )
        is None
    )
    r = longhaul("admin", "remove-agent", user)
    assert r.returncode == 0 and "revoked" in r.stdout, r.stderr
    # the connection it already has: its next request is refused (the ACLs are gone)
    err = produce_error(p, own(user, "raw.rtt"))
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
    assert (
        produce_error(
            p, own(user, "raw.rtt"), b'{"schema":"security-test","src":"security-test","dst":"security-test"}'
        )
        is None
    )
    stale = tmp_path / "old.password"
    stale.write_text(old)
    refusals = refused_login(user, str(stale))
    assert refusals and "Authentication failed" in refusals[0].str(), refusals


def test_an_agent_takes_probe_requests_in_its_own_group_only(agent):
    user, pw = agent
    # its own group (collectors/config OwnGroup), literally
    assert (
        kafka.group_refusal(f"longhaul-{user}", topic("probe_requests"), user=user, password_file=pw) is None
    )
    # another agent's: it would take that agent's requests
    err = kafka.group_refusal(
        "longhaul-agent-someone-else", topic("probe_requests"), user=user, password_file=pw
    )
    assert err is not None and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED, err


def test_the_jobs_identity_cannot_join_telegrafs_or_an_agents_group():
    flink = {"user": "flink", "password_file": str(SECRETS / "kafka-flink.password")}
    assert kafka.group_refusal("longhaul-it-job-" + uuid.uuid4().hex[:6], topic("raw.rtt"), **flink) is None
    for group in ("longhaul-telegraf-path", "longhaul-agent-it", "longhaul-psbridge"):
        err = kafka.group_refusal(group, topic("raw.rtt"), **flink)
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
    assert (
        kafka.group_refusal(
            "longhaul-agent-someone-else", topic("probe_requests"), user=user, password_file=pw
        )
        is None
    )
    r = longhaul("admin", "add-agent", user.removeprefix("agent-"), "--password-file", pw)
    assert r.returncode == 0, r.stderr
    err = kafka.group_refusal(
        "longhaul-agent-someone-else", topic("probe_requests"), user=user, password_file=pw
    )
    assert err is not None and err.code() == KafkaError.GROUP_AUTHORIZATION_FAILED, err
    assert (
        kafka.group_refusal(f"longhaul-{user}", topic("probe_requests"), user=user, password_file=pw) is None
    )


def certificate(tmp_path, subject):
    """A client certificate signed by the stack's own CA (as a site CA, or a leaked CA key, could
    issue one) for subject ("/O=Elsewhere/CN=admin"): (cert file, key file)."""
    key, csr, crt = (tmp_path / f"c.{x}" for x in ("key", "csr", "crt"))
    ext = tmp_path / "c.ext"
    ext.write_text("extendedKeyUsage=clientAuth\n")
    subprocess.run(
        ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", subject],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["openssl", "x509", "-req", "-in", csr, "-CA", SECRETS / "ca.crt", "-CAkey", SECRETS / "ca.key"]
        + ["-CAcreateserial", "-CAserial", tmp_path / "ca.srl", "-days", "1", "-out", crt, "-extfile", ext],
        check=True,
        capture_output=True,
    )
    return str(crt), str(key)


def tls(bootstrap, crt, key):
    """A client of the listener at bootstrap with a certificate, no SASL (mutual TLS)."""
    return {
        "bootstrap.servers": bootstrap,
        "security.protocol": "SSL",
        "ssl.ca.location": str(SECRETS / "ca.crt"),
        "ssl.certificate.location": crt,
        "ssl.key.location": key,
    }


def tls_producer(bootstrap, crt, key):
    return Producer({**tls(bootstrap, crt, key), "message.timeout.ms": 15000})


def tls_admin(bootstrap, crt, key):
    return AdminClient(tls(bootstrap, crt, key))


def test_a_certificate_is_its_whole_subject_so_only_the_admins_is_a_super_user(tmp_path):
    """The super user is the certificate CN=admin,O=Longhaul, not any certificate whose CN is admin:
    one of the same CA under another O gets nothing on the admin listener; and on the archiver
    listener every certificate but a pScheduler host's, the admin's included, gets nothing."""
    events, admin_listener = topic("events"), os.environ["LONGHAUL_KAFKA_ADMIN"]
    real = (str(SECRETS / "admin.crt"), str(SECRETS / "admin.key"))
    forged = certificate(tmp_path, "/O=Elsewhere/CN=admin")
    # a super user sees every ACL and topic; a principal without a right sees none of either
    every_acl = AclBindingFilter(
        ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY, AclPermissionType.ANY
    )
    admin, impostor = tls_admin(admin_listener, *real), tls_admin(admin_listener, *forged)
    assert (
        admin.describe_acls(every_acl).result(timeout=30) and events in admin.list_topics(timeout=30).topics
    )
    assert impostor.describe_acls(every_acl).result(timeout=30) == []
    assert impostor.list_topics(timeout=30).topics == {}
    err = produce_error(tls_producer(admin_listener, *forged), events)
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
    err = produce_error(tls_producer(os.environ["LONGHAUL_KAFKA_ARCHIVER"], *real), events)
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, err
