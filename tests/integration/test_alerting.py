"""Alerts reach people: events on the real events topic → the alert bridge → the real Alertmanager
(alerting/alertmanager.yml) → the real SMTP server and webhook receiver of the notification sink.
Each test raises events for links of its own (run_tag), so the mails it counts are its own."""

import pathlib
import re
import socket
import subprocess
import time

import alertmanager as am
import pytest
import requests
import stack
from conftest import now_ms, topic

EVENTS = topic("events")


def event(
    kind, src, dst, severity="critical", episode=None, evidence=None, msg=None, probe="collapse-detector"
):
    e = {
        "schema": "event",
        "version": 1,
        "kind": kind,
        "src": src,
        "dst": dst,
        "probe_id": probe,
        "ts": now_ms(),
        "severity": severity,
        "message": msg or f"{kind} on {src} → {dst}",
        "evidence": evidence or {},
    }
    if episode:
        e["episode_id"] = episode
    return e


def collapse(src, dst, episode):
    return event(
        "throughput_collapse",
        src,
        dst,
        episode=episode,
        probe="collapse-detector",
        evidence={
            "baseline_bps": 95e6,
            "baseline_stddev_bps": 2e6,
            "history_runs": 48,
            "observed_bps": 5e6,
            "drop_percent": 94.7,
            "probe": "tcp",
        },
        msg="throughput 5 Mbit/s is 95% below the link's baseline of 95 Mbit/s",
    )


@pytest.fixture(scope="module")
def t():
    return am.timings()


def test_a_collapse_mails_once_within_group_wait_and_its_recovery_mails_resolved(produce, run_tag, t):
    src, dst = f"{run_tag}-s1", f"{run_tag}-dst"
    t0 = time.time()
    produce(EVENTS, collapse(src, dst, f"{run_tag}-e1"))
    firing = am.wait_for(
        lambda: am.mails(f"[FIRING:1] throughput_collapse at {dst}", t0), t["group_wait"] + 20
    )
    assert firing, "no email for the collapse"
    delay = firing[0]["received"] - t0
    assert delay <= t["group_wait"] + 10, f"email {delay:.1f}s after the event, group_wait {t['group_wait']}s"
    body = am.mail_body(firing[0])
    for part in (
        f"{src} → {dst}",
        "baseline 95 Mbit/s ± 2 Mbit/s over 48 runs, now 5 Mbit/s",
        "since ",
        "dashboard: http",
        f"report: longhaul report --src {src} --dst {dst}",
    ):
        assert part in body, f"{part!r} not in the email:\n{body}"
    hooks = am.wait_for(lambda: am.webhooks("dst", dst, t0), 10)
    assert hooks and hooks[0]["payload"]["status"] == "firing"
    alert = [a for a in hooks[0]["payload"]["alerts"] if a["labels"]["dst"] == dst][0]
    assert alert["labels"]["alertname"] == "throughput_collapse" and alert["labels"]["src"] == src
    assert alert["labels"]["site"] == dst and alert["labels"]["probe"] == "tcp"

    # nothing more while it stays open: the bridge re-posts it, Alertmanager does not notify again
    time.sleep(max(t["group_interval"], t["repost"]) + 5)
    assert len(am.mails(dst, t0)) == 1, [m["subject"] for m in am.mails(dst, t0)]

    t1 = time.time()
    produce(EVENTS, event("throughput_recovery", src, dst, severity="info", episode=f"{run_tag}-e1"))
    resolved = am.wait_for(
        lambda: am.mails(f"[RESOLVED] throughput_collapse at {dst}", t1), t["group_interval"] + 20
    )
    assert resolved, "no resolved email"
    assert am.wait_for(
        lambda: [w for w in am.webhooks("dst", dst, t1) if w["payload"]["status"] == "resolved"], 10
    )


def test_a_silenced_link_mails_nothing(produce, run_tag, t):
    src, dst = f"{run_tag}-s1", f"{run_tag}-dst"
    out = am.silence("--link", f"{src}:{dst}", "--for", "10m", "--comment", "integration test maintenance")
    sid = re.search(r": (\S+)$", out.strip()).group(1)
    assert sid in am.silence("list")
    t0 = time.time()
    produce(EVENTS, collapse(src, dst, f"{run_tag}-e1"))
    held = am.wait_for(lambda: [a for a in am.alerts(dst=dst) if a["status"]["silencedBy"]], 20)
    assert held and held[0]["status"]["silencedBy"] == [sid]
    time.sleep(t["group_wait"] + 10)
    assert am.mails(dst, t0) == [] and am.webhooks("dst", dst, t0) == []
    produce(EVENTS, event("throughput_recovery", src, dst, severity="info", episode=f"{run_tag}-e1"))
    assert am.wait_for(lambda: not am.alerts(dst=dst), 20), "the recovery did not resolve the silenced alert"
    am.silence("expire", sid)
    time.sleep(t["group_interval"] + 5)
    assert am.mails(dst, t0) == [], "the silenced episode was mailed after the silence ended"


def test_a_site_outage_is_one_grouped_mail_and_the_site_alert_inhibits_per_link_ones(produce, run_tag, t):
    site = f"{run_tag}-dst"
    srcs = [f"{run_tag}-s{i}" for i in (1, 2, 3)]
    t0 = time.time()
    for i, s in enumerate(srcs):
        produce(EVENTS, collapse(s, site, f"{run_tag}-c{i}"))
    got = am.wait_for(lambda: am.mails(f"throughput_collapse at {site}", t0), t["group_wait"] + 20)
    time.sleep(5)
    got = am.mails(f"throughput_collapse at {site}", t0)
    assert len(got) == 1 and got[0]["subject"].startswith("[FIRING:3]"), [m["subject"] for m in got]
    body = am.mail_body(got[0])
    assert all(f"{s} → {site}" in body for s in srcs), body

    # every source fails to reach the site: one site_unreachable mail, the per-link ones inhibited
    t1 = time.time()
    for s in srcs:
        produce(
            EVENTS,
            event(
                "unreachable",
                s,
                site,
                probe="reachability",
                evidence={"error_class": "connection_refused", "probe": "tcp"},
            ),
        )
    produce(EVENTS, event("site_unreachable", "*", site, probe="reachability", evidence={"sources": 3}))
    mail = am.wait_for(lambda: am.mails(f"site_unreachable at {site}", t1), t["group_wait"] + 20)
    assert mail and mail[0]["subject"].startswith("[FIRING:1]")
    links = am.mail_body(mail[0])
    assert all(f"{s} → {site} (unreachable)" in links for s in srcs), links
    inhibited = [a for a in am.alerts(dst=site, alertname="unreachable") if a["status"]["inhibitedBy"]]
    assert len(inhibited) == 3
    time.sleep(t["group_wait"] + 5)
    assert am.mails(f"unreachable at {site}", t1) == mail, "per-link unreachable alerts were mailed"
    for i, s in enumerate(srcs):
        produce(EVENTS, event("reachable", s, site, severity="info", probe="reachability"))
        produce(EVENTS, event("throughput_recovery", s, site, severity="info", episode=f"{run_tag}-c{i}"))
    produce(EVENTS, event("site_reachable", "*", site, severity="info", probe="reachability"))


@pytest.fixture
def private_alertmanager(tmp_path):
    """A second Alertmanager on the stack's rendered config (the shipped routes and inhibitions),
    holding only what a test posts: other tests leave pipeline-wide outages open in the stack's
    one, which mute every no_data and hide which alert inhibits what (Alertmanager names one)."""
    # the stack's own Alertmanager build, wherever its cache is (LONGHAUL_STACK_CACHE)
    binary = pathlib.Path(stack.run("alertmanager_home").stdout.strip()) / "alertmanager"
    assert binary.is_file(), f"no Alertmanager at {binary}: make up installs it"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            str(binary),
            f"--config.file={am.STACK / 'run/alertmanager/alertmanager.yml'}",
            f"--storage.path={tmp_path}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--cluster.listen-address=",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert am.wait_for(lambda: _ready(url), 20), "the private Alertmanager did not start"
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _ready(url):
    try:
        return requests.get(url + "/-/ready", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def test_an_agents_pipeline_outage_inhibits_its_links_no_data_only(produce, run_tag, private_alertmanager):
    host, other, dst = f"{run_tag}-s1", f"{run_tag}-s2", f"{run_tag}-dst"
    produce(
        EVENTS,
        event(
            "pipeline_degraded",
            host,
            "*",
            probe="watchdog",
            episode=f"w:{run_tag}",
            evidence={"component": "agent", "watchdog": "it"},
            msg=f"agent {host} is silent",
        ),
    )
    for s in (host, other):
        produce(EVENTS, event("no_data", s, dst, severity="warning", probe="no-data-detector"))
    # the alerts as the real bridge posted them, into an Alertmanager that holds nothing else
    posted = am.wait_for(
        lambda: (
            len(am.alerts(dst=dst, alertname="no_data")) == 2
            and am.alerts(src=host, alertname="pipeline_degraded") + am.alerts(dst=dst, alertname="no_data")
        ),
        20,
    )
    assert posted, "the bridge did not post the agent's outage and its links' no_data"
    degraded = [a for a in posted if a["labels"]["alertname"] == "pipeline_degraded"][0]
    assert degraded["labels"]["scope"] == "agent" and degraded["labels"]["component"] == "agent"
    requests.post(
        private_alertmanager + "/api/v2/alerts",
        timeout=10,
        json=[
            {"labels": a["labels"], "annotations": a["annotations"], "endsAt": a["endsAt"]} for a in posted
        ],
    ).raise_for_status()
    want = {host: [degraded["fingerprint"]], other: []}

    def inhibited():  # Alertmanager's inhibitor learns of a new source alert a moment after the post
        held = requests.get(
            private_alertmanager + "/api/v2/alerts", timeout=10, params={"filter": 'alertname="no_data"'}
        ).json()
        return {a["labels"]["src"]: a["status"]["inhibitedBy"] for a in held}

    am.wait_for(lambda: inhibited() == want, 15)
    assert inhibited() == want
    for s in (host, other):
        produce(EVENTS, event("data_resumed", s, dst, severity="info", probe="no-data-detector"))
    produce(
        EVENTS,
        event(
            "pipeline_recovered",
            host,
            "*",
            severity="info",
            probe="watchdog",
            episode=f"w:{run_tag}",
            evidence={"component": "agent", "watchdog": "it"},
        ),
    )


def test_restarts_of_the_bridge_and_of_alertmanager_neither_resolve_nor_repeat(produce, run_tag, t):
    src, dst = f"{run_tag}-s1", f"{run_tag}-dst"
    t0 = time.time()
    produce(EVENTS, collapse(src, dst, f"{run_tag}-e1"))
    assert am.wait_for(lambda: am.mails(f"[FIRING:1] throughput_collapse at {dst}", t0), t["group_wait"] + 20)

    # kill -9 of the bridge: Alertmanager keeps the alert firing (its end is a hold ahead), and the
    # restarted bridge rebuilds it from the topic without a second mail
    stack.kill9("bridge", lambda: stack.healthy("bridge"))
    # the restarted bridge re-posts within a repost interval; a second mail would follow at the
    # group's next interval at the latest
    time.sleep(t["repost"] + t["group_interval"] + 5)
    held = am.alerts(dst=dst, alertname="throughput_collapse")
    assert held and held[0]["status"]["state"] == "active"

    # kill -9 of Alertmanager: it comes back without the alert; the bridge re-posts it within a
    # repost interval, and the notification log (kept on disk) stops a second mail
    stack.kill9("alertmanager", lambda: stack.healthy("alertmanager"))
    back = am.wait_for(lambda: am.alerts(dst=dst, alertname="throughput_collapse"), t["repost"] + 20)
    assert back and back[0]["status"]["state"] == "active"
    time.sleep(t["group_wait"] + 5)
    subjects = [m["subject"] for m in am.mails(dst, t0)]
    assert subjects == [f"[FIRING:1] throughput_collapse at {dst}"], subjects

    t1 = time.time()
    produce(EVENTS, event("throughput_recovery", src, dst, severity="info", episode=f"{run_tag}-e1"))
    assert am.wait_for(
        lambda: am.mails(f"[RESOLVED] throughput_collapse at {dst}", t1), t["group_interval"] + 20
    )


def test_the_heartbeat_reaches_the_dead_mans_switch_every_minute(t):
    """The one failure no alert reports (the bridge or Alertmanager down) is the heartbeat's absence."""
    beats = am.wait_for(
        lambda: [
            w
            for w in am.webhooks("alertname", "longhaul_heartbeat", time.time() - 75)
            if w["path"] == "/heartbeat" and w["payload"]["status"] == "firing"
        ],
        75,
        step=2,
    )
    assert beats, "no heartbeat at the dead man's switch in the last 75 s"
    assert all(w["path"] == "/heartbeat" for w in am.webhooks("alertname", "longhaul_heartbeat")), (
        "the heartbeat reached another receiver"
    )


def test_an_info_event_is_a_notice_mailed_once(produce, run_tag, t):
    src, dst = f"{run_tag}-s1", f"{run_tag}-dst"
    t0 = time.time()
    produce(
        EVENTS,
        event(
            "route_change",
            src,
            dst,
            severity="warning",
            probe="route-detector",
            evidence={"rtt_before_ms": 161.0, "rtt_after_ms": 272.0},
            msg="dominant path changed at hops 2-3",
        ),
    )
    got = am.wait_for(lambda: am.mails(f"route_change at {dst}", t0), t["group_wait"] + 20)
    assert got and got[0]["subject"] == f"[NOTICE] route_change at {dst}", [m["subject"] for m in got]
    assert "RTT 161 ms before, 272 ms after" in am.mail_body(got[0])
    held = am.alerts(dst=dst, alertname="route_change")
    assert held and held[0]["labels"]["role"] == "info"
