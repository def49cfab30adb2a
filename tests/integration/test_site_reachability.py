"""One site cannot cancel another's alarm, on the running job (issue 46): `site_unreachable` is
raised when a quorum (0.8) of a site's recent sources fail to reach it, so one source that gets
through, or an identity that says it does in its own name, neither prevents the alarm nor ends it
(docs/security.md; the rule: `SiteReachabilityDetector`, `ReachParams`)."""

import json
import uuid

from conftest import kafka, now_ms, topic

RAW, EVENTS = topic("raw.throughput"), topic("events")


def run(src, dst, ts, refused):
    """A TCP run summary from src to dst at ts: refused at connect, or 940 Mbit/s over 10 s."""
    s = {
        "schema": "throughput_sample",
        "version": 2,
        "src": src,
        "dst": dst,
        "probe_id": "tcp",
        "ts": ts,
        "run_id": f"{src}-{ts}",
        "record": "summary",
        "tool": "iperf3",
        "protocol": "tcp",
        "port": 5201,
    }
    if refused:
        return s | {"error": {"class": "connection_refused", "message": "connect failed: Connection refused"}}
    return s | {"duration_s": 10.0, "bytes": 1_175_000_000, "bits_per_second": 9.4e8}


def test_one_source_getting_through_neither_prevents_nor_ends_a_sites_alarm(job):
    site = "it-site-" + uuid.uuid4().hex[:8]
    honest = [f"it-src{i}-{site}" for i in range(4)]
    liar = f"it-liar-{site}"
    t0 = now_ms() - 30_000
    # in the order written: one key, one partition, so the job takes them in this order
    runs = [
        run(liar, site, t0, refused=False),  # the liar first: 1 of 1 gets through
        *[run(s, site, t0 + 1_000 * (i + 1), refused=True) for i, s in enumerate(honest)],
        run(liar, site, t0 + 10_000, refused=False),  # after the alarm, twice
        run(liar, site, t0 + 11_000, refused=False),
        run(honest[0], site, t0 + 20_000, refused=False),  # a source that really gets through again
    ]
    p = kafka.producer({"enable.idempotence": True})
    for r in runs:
        p.produce(RAW, key=f"*|{site}", value=json.dumps(r).encode())
    assert p.flush(15) == 0, "Kafka did not take the runs"

    # every job running takes these runs (the session's mesh job too), each raising its own copy
    def both(found):
        return {e["kind"] for e in found} == {"site_unreachable", "site_reachable"}

    got = kafka.read_all(
        EVENTS, lambda e: e["dst"] == site and e["kind"].startswith("site_"), both, timeout_s=90
    )
    down = [e for e in got if e["kind"] == "site_unreachable"]
    up = [e for e in got if e["kind"] == "site_reachable"]
    assert down and up, got
    # raised by the fourth honest failure, although the liar's run said the site was reachable
    assert {(e["ts"], e["evidence"]["failing"], e["evidence"]["sources"]) for e in down} == {
        (t0 + 4_000, 4, 5)
    }, down
    # kept through the liar's two runs: ended only by an honest source getting through, 3 of 5 failing
    assert {e["ts"] for e in up} == {t0 + 20_000}, up
    assert all(e["message"].endswith("2 of 5 recent sources get through") for e in up), up
