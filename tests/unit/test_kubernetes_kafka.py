"""deploy/kubernetes's Kafka: the KafkaTopics are ingest/topics.yaml and the KafkaUsers are
internal/kafkaadmin/principals.go (deploy/kubernetes/gen's output, and checked against topics.yaml
directly); an agent's user may only write samples; the cluster is secured like the native broker.
"""

import shutil
import subprocess

import pytest
import yaml
from kubernetes_manifests import KDIR, docs, errors, one
from longhaul_contract import CONTRACT
from stack_programs import ROOT

TOPICS = yaml.safe_load((ROOT / "ingest/topics.yaml").read_text())["topics"]

# --- Kafka: the topics and roles are the project's ---------------------------------------------


def gen(*args):
    return subprocess.run(
        [shutil.which("go") or "/usr/local/go/bin/go", "run", "./deploy/kubernetes/gen", *args],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    gen("-out", str(out))
    return out


@pytest.mark.parametrize("name", ["topics.yaml", "users.yaml"])
def test_the_committed_kafka_resources_are_the_generators_output(generated, name):
    assert (KDIR / "kafka" / name).read_text() == (generated / name).read_text(), (
        "run `go run ./deploy/kubernetes/gen` and commit deploy/kubernetes/kafka"
    )


def test_the_kafka_topics_are_those_of_ingest_topics_yaml():
    contract = TOPICS
    topics = {t["spec"]["topicName"]: t["spec"] for t in docs("KafkaTopic")}
    assert list(topics) == [t["name"] for t in contract]
    [pool] = docs("KafkaNodePool")
    for t in contract:
        spec = topics[t["name"]]
        assert spec["partitions"] == t["partitions"]
        assert spec["config"]["retention.ms"] == str(t["retention_ms"])
        assert spec["config"]["cleanup.policy"] == t["cleanup_policy"]
        assert spec["config"].get("message.timestamp.type") == t.get("timestamp_type")
        # durable: on every broker, and a write survives one broker's loss
        assert spec["replicas"] == pool["spec"]["replicas"] and "broker" in pool["spec"]["roles"]
        assert int(spec["config"]["min.insync.replicas"]) == spec["replicas"] - 1


def test_an_agent_gets_its_own_raw_topics_and_may_write_only_those_and_dead_letters():
    """Its own raw topics and its own dead letters, and no shared topic to write."""
    out = [d for d in yaml.safe_load_all(gen("-agent", "cern-ps1")) if d]
    [user] = [d for d in out if d["kind"] == "KafkaUser"]
    own = [
        CONTRACT.own_topic(t, "agent-cern-ps1")
        for t in CONTRACT.raw_topics() + [CONTRACT.topic("dead_letter")]
    ]
    assert own[-1] == "longhaul.deadletter.agent-cern-ps1"
    shared = {t["name"]: t for t in TOPICS}
    topics = [d for d in out if d["kind"] == "KafkaTopic"]
    assert [t["spec"]["topicName"] for t in topics] == own
    for t in topics:
        base = shared[t["spec"]["topicName"].rsplit(".agent-", 1)[0]]
        assert errors(t) == []
        assert t["spec"]["partitions"] == CONTRACT.own["partitions"]
        assert t["spec"]["config"]["retention.ms"] == str(base["retention_ms"])
        assert t["spec"]["config"]["retention.bytes"] == str(CONTRACT.own["retention_bytes"])
        assert t["spec"]["config"].get("message.timestamp.type") == base.get("timestamp_type")
    assert errors(user) == []
    assert user["metadata"]["name"] == "agent-cern-ps1"
    rights = {
        (a["resource"]["type"], a["resource"]["name"], a["resource"]["patternType"], tuple(a["operations"]))
        for a in user["spec"]["authorization"]["acls"]
    }
    assert rights == {("topic", t, "literal", ("Write", "Describe")) for t in own} | {
        ("topic", "longhaul.probe-requests", "literal", ("Read", "Describe")),
        ("group", "longhaul-agent-cern-ps1", "literal", ("Read",)),
    }
    # the quota `longhaul admin add-agent` sets on the native brokers
    assert user["spec"]["quotas"] == {"producerByteRate": 1 << 20, "consumerByteRate": 256 << 10}


def test_the_kafka_cluster_is_secured_like_the_native_broker():
    kafka = one("Kafka", "longhaul")["spec"]["kafka"]
    assert kafka["authorization"]["type"] == "simple"
    for listener in kafka["listeners"]:
        # TLS everywhere, and a login: a SCRAM password, or a certificate of the clients CA
        assert listener["tls"] is True and listener["authentication"]["type"] in ("scram-sha-512", "tls"), (
            listener["name"]
        )
    assert not any(k.startswith("allow.everyone") or k == "super.users" for k in kafka.get("config", {}))
    # every user can log in somewhere: SCRAM users on a SCRAM listener, certificate users on a mutual-TLS one
    logins = {lst["authentication"]["type"] for lst in kafka["listeners"]}
    assert {u["spec"]["authentication"]["type"] for u in docs("KafkaUser")} <= logins
