"""pScheduler's archivers as they behave, configured by what `longhaul admin add-pscheduler-host`
writes: the Kafka plugin's code path (kafka-python over SSL with the PEM contents of the archive
written to temporary files, one producer per result) and the HTTP archiver (POST with the bearer
header, verify-ssl, retried by its policy) both deliver results that become samples. The HTTP
archiver loses nothing through a bridge outage or a Kafka outage; the Kafka plugin drops what it
cannot deliver (as perfsonar/psbridge/README.md says); removing one host revokes that host alone."""

import json
import os
import threading
import time
import uuid

import kafka
from confluent_kafka import Producer
from longhaul_contract import CONTRACT
from operator_cli import SECRETS, free_port, longhaul
from psbridge import TOPIC, Bridge, archive, send
from pscheduler_archivers import HttpArchiver, archive_data, kafka_plugin


def add_host(tmp, bridge, own_token=False):
    """A pScheduler host as add-pscheduler-host makes it: with the token every host shares, or one
    of its own (installed in the bridge's host_tokens_dir, as the command prints)."""
    name = "it-" + uuid.uuid4().hex[:8]
    out = tmp / name
    token = [] if own_token else ["--bridge-token-file", str(bridge.tmp / "token")]
    printed = longhaul(
        "admin", "add-pscheduler-host", name, "--out", str(out), "--bridge-url", Bridge.url, *token
    )
    if own_token:
        mine = out / f"{name}.token"
        assert mine.stat().st_mode & 0o777 == 0o600
        (bridge.host_tokens / mine.name).write_bytes(mine.read_bytes())
    return name, out, printed


def samples_of(role, src, want, timeout_s=60):
    return kafka.read_all(CONTRACT.topic(role), lambda m: m.get("src") == src, want, timeout_s)


def test_add_pscheduler_host_writes_archives_both_archivers_deliver(bridge, tmp_path, run_tag):
    name, out, printed = add_host(tmp_path, bridge)
    assert f"CN=pscheduler-{name}" in printed and "update-ca-certificates" in printed, printed
    assert "BEGIN" not in printed and bridge.token not in printed, "a secret was printed"
    for f in out.iterdir():
        assert f.stat().st_mode & 0o777 == 0o600, f
    kafka = archive_data(out / "longhaul-kafka.json", "kafka")
    assert kafka["_ssl-key"].startswith("-----BEGIN PRIVATE KEY-----") and kafka["_ssl-password"]
    assert kafka["server"] == os.environ["LONGHAUL_KAFKA_ARCHIVER"], kafka["server"]

    src, dst = f"{run_tag}-psk", f"{run_tag}-far"
    rtt = archive("rtt", "ping-diags-command-line", src, dst)
    assert kafka_plugin(out / "longhaul-kafka.json", rtt) == {"succeeded": True}
    lat = archive("latency", "latencybg-powstream-archived", f"{run_tag}-psh", dst)
    http = HttpArchiver(out / "longhaul-http.json", ca=str(SECRETS / "ca.crt"))
    assert http.archive(lat) == 200, http.attempts
    assert len(samples_of("raw.rtt", src, 1)) == 1
    got = samples_of("raw.latency", f"{run_tag}-psh", 1)
    assert len(got) == 1 and got[0]["tool"] == "powstream" and got[0]["packets_sent"] == 600, got
    h = bridge.wait(
        lambda h: h["by_input"].get("kafka", 0) >= 1 and h["by_input"].get("http", 0) >= 1, "both inputs"
    )
    assert h["accepted"] == 2, h


def test_the_http_archiver_retries_through_a_bridge_outage(bridge, tmp_path, run_tag):
    _, out, _ = add_host(tmp_path, bridge)
    src = f"{run_tag}-out"
    msg = archive("rtt", "ping-diags-command-line", src, f"{run_tag}-far")
    bridge.stop()
    http = HttpArchiver(out / "longhaul-http.json", ca=str(SECRETS / "ca.crt"), time_scale=1 / 30)
    t = threading.Thread(target=lambda: http.archive(msg))
    t.start()
    time.sleep(4)  # two attempts refused (PT1M × 1/30 = 2 s apart)
    bridge.start()
    t.join(60)
    assert not t.is_alive()
    assert http.attempts[-1][0] == 200 and any(isinstance(a[0], str) for a in http.attempts), http.attempts
    assert len(samples_of("raw.rtt", src, 1)) == 1


def test_a_kafka_outage_loses_nothing_over_http(tmp_path, run_tag):
    dead = Bridge(tmp_path, bootstrap=f"127.0.0.1:{free_port()}")
    dead.start(await_kafka=False)
    try:
        _, out, _ = add_host(tmp_path, dead)
        src = f"{run_tag}-kdown"
        msg = archive("latency", "latencybg-powstream-archived", src, f"{run_tag}-far")
        http = HttpArchiver(out / "longhaul-http.json", ca=str(SECRETS / "ca.crt"))
        assert http.archive(msg) == 200, "accepted once in the spool, Kafka or not"
        assert samples_of("raw.latency", src, 1, timeout_s=5) == []
    finally:
        dead.stop()
    dead.bootstrap = None  # Kafka is back: the same spool, the brokers of the stack
    dead.write_config()
    dead.start()
    try:
        assert len(samples_of("raw.latency", src, 1)) == 1
    finally:
        dead.stop()


def test_the_kafka_plugin_drops_a_result_it_cannot_deliver(bridge, tmp_path, run_tag):
    _, out, _ = add_host(tmp_path, bridge)
    spec = json.loads((out / "longhaul-kafka.json").read_text())
    spec["data"]["server"] = f"127.0.0.1:{free_port()}"  # the archiver listener down
    (out / "down.json").write_text(json.dumps(spec))
    src = f"{run_tag}-drop"
    answer = kafka_plugin(out / "down.json", archive("rtt", "ping-diags-command-line", src, f"{run_tag}-far"))
    assert answer["succeeded"] is False and "NoBrokersAvailable" in answer["error"], answer
    assert "retry" not in answer, "the plugin never reaches its retry-policy"
    assert samples_of("raw.rtt", src, 1, timeout_s=5) == []


def test_removing_a_pscheduler_host_revokes_that_host_alone(bridge, tmp_path, run_tag):
    gone, gone_out, _ = add_host(tmp_path, bridge)
    _, kept_out, _ = add_host(tmp_path, bridge)
    longhaul("admin", "remove-pscheduler-host", gone)
    # the revoked certificate still gets a TLS session and may write nothing (the Kafka plugin would
    # block 60 s on the topic's metadata, fail and die on its clean-up: perfsonar/psbridge/README.md)
    spec = archive_data(gone_out / "longhaul-kafka.json", "kafka")
    for k in ("_ssl-cert", "_ssl-key"):
        (tmp_path / k).write_text(spec[k])
    revoked = Producer(
        {
            "bootstrap.servers": spec["server"],
            "security.protocol": "SSL",
            "ssl.ca.location": str(SECRETS / "ca.crt"),
            "ssl.certificate.location": str(tmp_path / "_ssl-cert"),
            "ssl.key.location": str(tmp_path / "_ssl-key"),
            "message.timeout.ms": 10000,
        }
    )
    err = send(revoked, f"{TOPIC}.pscheduler-{gone}", b"{}")  # its own topic: where it wrote
    assert err is not None and "TOPIC_AUTHORIZATION_FAILED" in str(err), err
    b = f"{run_tag}-kept"
    msg = archive("rtt", "ping-diags-command-line", b, f"{run_tag}-far")
    assert kafka_plugin(kept_out / "longhaul-kafka.json", msg) == {"succeeded": True}
    assert len(samples_of("raw.rtt", b, 1)) == 1


def test_a_pscheduler_host_reports_for_its_own_hosts_only(tmp_path, run_tag):
    """The host's certificate writes its own topic (add-pscheduler-host's archive file, through the
    real plugin's code), where the bridge knows which hosts it may report for: a result of a test
    of one of them becomes samples, one of two other hosts a dead letter naming the identity, and
    so is an rtt test into its host (pScheduler runs rtt at the source only: the destination's
    pScheduler has no such run to archive)."""
    b = Bridge(tmp_path)
    name, out, printed = add_host(tmp_path, b)
    identity, mine, far = f"pscheduler-{name}", f"{run_tag}-own", f"{run_tag}-far"
    assert f"{TOPIC}.{identity}" in printed and "pscheduler_bridge: {hosts: {" + identity in printed, printed
    assert archive_data(out / "longhaul-kafka.json", "kafka")["topic"] == f"{TOPIC}.{identity}"
    b.hosts = {identity: [mine]}
    b.write_config()
    b.start()
    try:
        ok = archive("rtt", "ping-diags-command-line", mine, far)
        assert kafka_plugin(out / "longhaul-kafka.json", ok) == {"succeeded": True}
        other = f"{run_tag}-other"
        forged = archive("rtt", "ping-diags-command-line", other, far)
        assert kafka_plugin(out / "longhaul-kafka.json", forged) == {"succeeded": True}, "Kafka took it"
        assert len(samples_of("raw.rtt", mine, 1)) == 1
        dead = kafka.read_all(CONTRACT.topic("dead_letter"), lambda d: other in d["reason"], 1, 60, quiet_s=0)
        assert dead and dead[0]["reason"] == (
            f"pScheduler result from kafka: pscheduler_host: a result of {other}→{far} run by its source, "
            f"from {identity}, which may report for {mine} only"
        ), dead
        assert samples_of("raw.rtt", other, 1, timeout_s=3) == []
        into = archive("rtt", "ping-diags-command-line", far, mine)
        assert kafka_plugin(out / "longhaul-kafka.json", into) == {"succeeded": True}, "Kafka took it"
        dead = kafka.read_all(
            CONTRACT.topic("dead_letter"), lambda d: f"{far}→{mine}" in d["reason"], 1, 60, quiet_s=0
        )
        assert dead and dead[0]["reason"].endswith(
            f"{far}→{mine} run by its source, from {identity}, which may report for {mine} only"
        ), dead
    finally:
        b.stop()


def summaries(samples):
    return [m for m in samples if m["record"] == "summary"]


def test_a_throughput_tests_other_end_posting_its_run_id_first_drops_nothing(tmp_path, run_tag):
    """Both ends of a throughput test know its run's id. The destination's host posting that id
    first, with a collapse of its own making, must not have the source's real result dropped as a
    duplicate; the same result again (a retry, the other end's default archive) adds nothing."""
    b = Bridge(tmp_path)
    (src_host, src_out, _), (dst_host, _, _) = add_host(tmp_path, b, True), add_host(tmp_path, b, True)
    src, dst = f"{run_tag}-tsrc", f"{run_tag}-tdst"
    b.hosts = {f"http-{src_host}": [src], f"http-{dst_host}": [dst]}
    b.write_config()
    b.start()
    try:
        real = archive("throughput", "iperf3-tcp-2streams-tbf20mbit", src, dst)
        forged = json.loads(json.dumps(real))
        measured = forged["result"]["summary"]["summary"]
        for k in ("throughput-bits", "receiver-throughput-bits"):
            measured[k] /= 10
        tokens = {h: (src_out.parent / h / f"{h}.token").read_text() for h in (src_host, dst_host)}
        for what, msg, host, want in [
            ("the destination's forged copy, first", forged, dst_host, "accepted"),
            ("the source's real result", real, src_host, "accepted"),
            ("the source's retry", real, src_host, "duplicate"),
            ("the destination's copy of the real run", real, dst_host, "duplicate"),
        ]:
            r = b.post(msg, token=tokens[host])
            assert r.status_code == 200 and r.json()["status"] == want, (what, r.text)
        runs = summaries(samples_of("raw.throughput", src, lambda ms: len(summaries(ms)) >= 2))
        said = sorted(m["bits_per_second"] for m in runs)
        assert said == [
            measured["receiver-throughput-bits"],
            real["result"]["summary"]["summary"]["receiver-throughput-bits"],
        ], runs
    finally:
        b.stop()


def test_a_host_with_a_token_of_its_own_reports_for_its_hosts_and_is_revoked_alone(tmp_path, run_tag):
    """add-pscheduler-host gives the host's HTTP archiver a token of its own, which the bridge
    knows as http-NAME: a result of the host's own test becomes samples, one of other hosts a dead
    letter naming it; deleting its token file refuses its next post and no other host's."""
    b = Bridge(tmp_path)
    name, out, printed = add_host(tmp_path, b, own_token=True)
    other_name, other_out, _ = add_host(tmp_path, b, own_token=True)
    identity, mine, far = f"http-{name}", f"{run_tag}-tok", f"{run_tag}-far"
    token = (out / f"{name}.token").read_text()
    assert token not in printed and f"{identity}: [THIS-HOST" in printed and f"{name}.token" in printed, (
        printed
    )
    assert archive_data(out / "longhaul-http.json", "http")["_headers"]["Authorization"] == f"Bearer {token}"
    b.hosts = {identity: [mine], f"http-{other_name}": [f"{run_tag}-tok2"]}
    b.write_config()
    b.start()
    try:
        http = HttpArchiver(out / "longhaul-http.json", ca=str(SECRETS / "ca.crt"))
        assert http.archive(archive("rtt", "ping-diags-command-line", mine, far)) == 200, http.attempts
        assert len(samples_of("raw.rtt", mine, 1)) == 1
        other = f"{run_tag}-not-mine"
        r = b.post(archive("rtt", "ping-diags-command-line", other, far), token=token)
        assert r.status_code == 200 and r.json()["status"] == "dead_lettered", r.text
        assert r.json()["reason"] == (
            f"pscheduler_host: a result of {other}→{far} run by its source, from {identity}, "
            f"which may report for {mine} only"
        ), r.text

        (b.host_tokens / f"{name}.token").unlink()
        r = b.post(archive("rtt", "ping-diags-command-line", mine, far), token=token)
        assert r.status_code == 401, r.text
        kept = HttpArchiver(other_out / "longhaul-http.json", ca=str(SECRETS / "ca.crt"))
        assert kept.archive(archive("rtt", "ping-diags-command-line", f"{run_tag}-tok2", far)) == 200
        assert len(samples_of("raw.rtt", f"{run_tag}-tok2", 1)) == 1
    finally:
        b.stop()
