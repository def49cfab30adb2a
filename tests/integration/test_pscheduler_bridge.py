"""pScheduler's archivers into the secured stack: the agent as pScheduler bridge (perfsonar/psbridge)
takes results from the Kafka archiver's topic (written over the brokers' mutual-TLS archiver
listener with the pscheduler certificate, as pScheduler's kafka-python producer does: no key, no
SASL) and from the HTTP archiver's posts (bearer token, TLS), and publishes them as samples. A
retried result adds nothing, also across a restart of the bridge; what cannot be converted is a
dead letter with its reason; the archiver's certificate writes nothing else. Several bridges behind
one name share what they converted: a result that reaches another one next adds nothing there."""

import json
import os
import time

import kafka
from confluent_kafka import Producer
from longhaul_contract import CONTRACT
from psbridge import SECRETS, TOPIC, Bridge, archive, archiver_producer, send


def test_results_from_both_archivers_become_samples_once(bridge, run_tag):
    src, dst = f"{run_tag}-ps", f"{run_tag}-far"
    tput, trace, rtt = (
        archive("throughput", "iperf3-tcp-2streams-tbf20mbit", src, dst),
        archive("path", "traceroute-ecmp-3-hops", src, dst),
        archive("rtt", "ping-diags-command-line", src, dst),
    )
    junk = {"id": run_tag, "note": "not a result"}
    p = archiver_producer()
    for msg in (tput, trace, tput, junk):  # the throughput result twice: the archiver's retry
        assert send(p, TOPIC, json.dumps(msg).encode()) is None
    r = bridge.post(rtt)
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
    assert bridge.post(rtt).json()["status"] == "duplicate"
    assert bridge.post(rtt, token="wrong").status_code == 401
    h = bridge.wait(lambda h: h["by_input"].get("kafka", 0) >= 4, "the four Kafka messages taken")
    assert (h["accepted"], h["duplicates"], h["dead_lettered"], h["unauthorized"]) == (3, 2, 1, 1), h

    # each result's samples, once, on the raw topics, with the link and run from the result itself
    runs = {"pscheduler-" + m["id"] for m in (tput, trace, rtt)}
    samples = []
    for role in ("raw.throughput", "raw.path", "raw.rtt"):
        samples += kafka.read_all(CONTRACT.topic(role), lambda m: m.get("src") == src, 1)
    assert {s["run_id"] for s in samples} == runs
    assert len(samples) == h["samples"], f"{len(samples)} samples on Kafka, the bridge spooled {h['samples']}"
    keys = [json.dumps(s, sort_keys=True) for s in samples]
    assert len(set(keys)) == len(keys), "a sample was published twice"
    assert all(s["dst"] == dst and s["probe_id"].startswith("pscheduler-") for s in samples)

    # the bridge's: the junk message. (The golden results' runs are years old: behind the job's
    # watermark, their observations are the statistics' dead letters, rejected_by
    # LateToDeadLetter.REJECTED_BY and naming the raw topic their sample came from.)
    dead = kafka.read_all(
        CONTRACT.topic("dead_letter"),
        lambda m: run_tag in m.get("payload", "") and m["rejected_by"] != "longhaul-flink statistics",
        1,
    )
    assert len(dead) == 1 and dead[0]["source_topic"] == TOPIC, dead
    assert dead[0]["reason"].startswith("pScheduler result from kafka: ") and "test.type" in dead[0]["reason"]

    # a restart remembers: the archiver's retry of a result converted before adds nothing
    bridge.stop()
    bridge.start()
    assert bridge.post(rtt).json()["status"] == "duplicate"
    assert send(p, TOPIC, json.dumps(trace).encode()) is None
    bridge.wait(lambda h: h["duplicates"] >= 2, "the retried trace found a duplicate after the restart")
    assert bridge.health()["accepted"] == 0


def test_bridges_behind_one_name_convert_each_result_once(bridge, run_tag, tmp_path):
    """Both ends of a throughput test archive its result, and the HTTP archiver retries a post, to
    the bridges' one name: whichever bridge a result reaches next knows the first converted it."""
    src, dst = f"{run_tag}-ps", f"{run_tag}-far"
    rtt, tput = (
        archive("rtt", "ping-diags-command-line", src, dst),
        archive("throughput", "iperf3-tcp-2streams-tbf20mbit", src, dst),
    )
    (tmp_path / "second").mkdir()
    second = Bridge(tmp_path / "second", instance=1)
    second.start()
    try:
        posted = time.time() * 1000
        assert bridge.post(rtt).json()["status"] == "accepted"
        second.wait(
            lambda h: h["shares_until_ms"] >= posted, "the first bridge's result learnt", timeout_s=20
        )
        assert second.post(rtt).json()["status"] == "duplicate"
        posted = time.time() * 1000
        assert second.post(tput).json()["status"] == "accepted"  # the other end, first to the second
        bridge.wait(
            lambda h: h["shares_until_ms"] >= posted, "the second bridge's result learnt", timeout_s=20
        )
        assert bridge.post(tput).json()["status"] == "duplicate"
        first, other = bridge.health(), second.health()
        assert (first["accepted"], first["duplicates"], first["shared"], first["unshared"]) == (1, 1, 1, 0), (
            first
        )
        assert (other["accepted"], other["duplicates"], other["shared"], other["unshared"]) == (1, 1, 1, 0), (
            other
        )
    finally:
        second.stop()

    # a bridge that starts, with no seen keys of its own, follows what the fleet converted
    (tmp_path / "third").mkdir()
    third = Bridge(tmp_path / "third", instance=2)
    third.start()
    try:
        third.wait(lambda h: h["shares_until_ms"] >= posted, "the fleet's last hour learnt", timeout_s=20)
        assert third.post(rtt).json()["status"] == "duplicate"
        assert third.post(tput).json()["status"] == "duplicate"
    finally:
        third.stop()

    # each result's samples once on the raw topics; each shared once, by the bridge that converted it
    samples = []
    for role in ("raw.throughput", "raw.rtt"):
        samples += kafka.read_all(CONTRACT.topic(role), lambda m: m.get("src") == src, 1)
    assert {s["run_id"] for s in samples} == {"pscheduler-" + m["id"] for m in (rtt, tput)}
    keys = [json.dumps(s, sort_keys=True) for s in samples]
    assert len(set(keys)) == len(keys), "a sample was published twice"
    shared = kafka.read_all(CONTRACT.topic("psbridge.seen"), lambda m: m.get("src") == src, 2)
    assert sorted(m["bridge"] for m in shared) == ["psbridge-it", "psbridge-it1"], shared
    assert all(m["dst"] == dst and len(m["digest"]) == 32 for m in shared), shared


def test_the_archiver_certificate_writes_only_its_topic(run_tag):
    err = send(archiver_producer(), CONTRACT.topic("raw.throughput"), b'{"forged": true}')
    assert err is not None and "TOPIC_AUTHORIZATION_FAILED" in str(err), err
    # and a client without a certificate does not get in at all
    p = Producer(
        {
            "bootstrap.servers": os.environ["LONGHAUL_KAFKA_ARCHIVER"],
            "security.protocol": "SSL",
            "ssl.ca.location": str(SECRETS / "ca.crt"),
            "message.timeout.ms": 8000,
        }
    )
    err = send(p, TOPIC, b"{}")
    assert err is not None, "a client without a certificate wrote to the archivers' topic"
