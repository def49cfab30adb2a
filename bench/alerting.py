"""Alerting path: event on Kafka → notification received by the SMTP sink, through the alert bridge
and Alertmanager (alerting/alertmanager.yml, the stack's timings).

Latency: --latency alerts, each on a link of its own site, one every --gap seconds; for each, the
seconds from the event acknowledged by Kafka to its email in the sink. Alertmanager holds every
new group for group_wait on purpose, so the figure is also given without it (the path's own cost).
Throughput: --burst alerts of as many sites at once: seconds until every email arrived, as
notifications per hour. Every alert is resolved afterwards (its recovery), so nothing stays open.

python bench/alerting.py --latency 20 --burst 500"""

import argparse
import json
import time

import common
from common import alertmanager as am
from percentile import pct

EVENTS = common.EVENTS_TOPIC


def event(kind, src, dst, episode, severity="critical"):
    return {
        "schema": "event",
        "version": 1,
        "kind": kind,
        "src": src,
        "dst": dst,
        "probe_id": "bench",
        "ts": int(time.time() * 1000),
        "severity": severity,
        "episode_id": episode,
        "message": f"bench {kind} {src} → {dst}",
        "evidence": {"baseline_bps": 1e9, "observed_bps": 1e7},
    }


def send(producer, events):
    for e in events:
        producer.produce(EVENTS, json.dumps(e).encode(), key=f"{e['src']}|{e['dst']}".encode())
        producer.poll(0)
    assert producer.flush(60) == 0, "Kafka did not take every event"


def received(tag):
    """site → first email's arrival time, for the sites of this run."""
    out = {}
    for m in am.mails(f"throughput_collapse at {tag}"):
        site = m["subject"].rsplit(" at ", 1)[1].split(",")[0]
        out.setdefault(site, m["received"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=int, default=20)
    ap.add_argument("--gap", type=float, default=2.0)
    ap.add_argument("--burst", type=int, default=500)
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    t = am.timings("throughput_collapse")  # a link alert: LONGHAUL_ALERT_LINK_GROUP_WAIT
    producer = common.kafka.producer({"linger.ms": 5})
    tag = common.tag("bench-am")
    opened = []

    sent = {}
    for i in range(a.latency):
        site = f"{tag}-lat{i}"
        e = event("throughput_collapse", f"{tag}-src", site, f"{site}-e")
        send(producer, [e])
        sent[site] = time.time()
        opened.append(e)
        time.sleep(a.gap)
    deadline = time.time() + t["group_wait"] + 60
    while time.time() < deadline and len(set(received(tag)) & set(sent)) < len(sent):
        time.sleep(0.5)
    got = received(tag)
    lat = [got[s] - sent[s] for s in sent if s in got]
    lost = len(sent) - len(lat)
    print(
        "RESULT "
        + json.dumps(
            {
                "figure": "alerting_latency",
                "alerts": len(sent),
                "mailed": len(lat),
                "group_wait_s": t["group_wait"],
                "p50_s": round(pct(lat, 50), 2),
                "p99_s": round(pct(lat, 99), 2),
                "max_s": round(max(lat), 2),
                "p50_without_group_wait_s": round(pct(lat, 50) - t["group_wait"], 2),
                "p99_without_group_wait_s": round(pct(lat, 99) - t["group_wait"], 2),
            }
        ),
        flush=True,
    )
    assert lost == 0, f"{lost} alerts never mailed"

    burst = [
        event("throughput_collapse", f"{tag}-src", f"{tag}-b{i}", f"{tag}-b{i}-e") for i in range(a.burst)
    ]
    t0 = time.time()
    send(producer, burst)
    opened += burst
    want = {e["dst"] for e in burst}
    deadline = t0 + a.timeout
    while time.time() < deadline and not want <= set(received(tag)):
        time.sleep(1)
    got = received(tag)
    arrivals = sorted(got[s] for s in want if s in got)
    span = arrivals[-1] - t0 if arrivals else float("nan")
    drain = arrivals[-1] - arrivals[0] if len(arrivals) > 1 else float("nan")
    print(
        "RESULT "
        + json.dumps(
            {
                "figure": "alerting_burst",
                "alerts": a.burst,
                "mailed": len(arrivals),
                "group_wait_s": t["group_wait"],
                "first_mail_s": round(arrivals[0] - t0, 2),
                "last_mail_s": round(span, 2),
                # all the groups' group_wait ends together: what follows is how fast Alertmanager and SMTP deliver
                "per_hour_from_first_to_last_mail": round((len(arrivals) - 1) / drain * 3600)
                if drain == drain and drain > 0
                else None,
                "per_hour_from_event_to_last_mail": round(len(arrivals) / span * 3600),
            }
        ),
        flush=True,
    )

    send(
        producer,
        [dict(e, kind="throughput_recovery", severity="info", ts=int(time.time() * 1000)) for e in opened],
    )


if __name__ == "__main__":
    main()
