"""The demo's story on real traffic: testbed namespaces with delay lines and shaped links, the
real longhaul-probe agents, Kafka, the Flink job, Telegraf and InfluxDB.

healthy mesh (each link learns its baseline) → dst-a collapses (5 Mbit/s, 10 % loss), dst-b's
route flips to another carrier, dst-c's receiver refuses the iperf port → everything healed.
Each injected fault must raise its event on its own link within a bound derived from the probe
intervals and the job's watermark; untouched links, ECMP and a silent hop must raise nothing."""

import os
import statistics
import time
from dataclasses import dataclass, field

import alertmanager as am
import pytest
from conftest import influx_query, record

HEALTHY_S = int(os.environ.get("LONGHAUL_E2E_HEALTHY_S", "150"))  # ≥ 5 throughput runs per link
FAULT_MIN_S, FAULT_MAX_S = 100, 210  # until every fault event and 4 UDP runs under loss
RECOVER_MAX_S = 170
# bounds from fault to event arrival: probe interval(s) + run + out-of-orderness 20 s + checkpoint
BOUND_S = {
    "throughput_collapse": 90,  # catastrophic drop: the first run after the fault
    "unreachable": 110,  # two failed runs (25 s apart)
    "route_change": 100,  # three traceroutes off the usual path (12 s apart)
    "throughput_recovery": 120,  # two good runs
    "reachable": 90,
}  # the next good run
TCP_GOODPUT = 1448 / 1514  # iperf3 counts TCP payload; tbf counts whole frames
PATH_MAIN, PATH_ALT = "10.66.20.2", "10.66.21.2"  # dst-b's carriers cb1, cb2 (their edge-side address)


@dataclass
class Story:
    t_start: float
    t_fault: float = 0
    t_heal: float = 0
    t_end: float = 0
    events: list = field(default_factory=list)  # (arrived, event), one per distinct event
    raw: list = field(default_factory=list)  # (arrived, raw throughput/path sample)

    def find(self, kind, src, dst, after, before=None, **match):
        return [
            (t, e)
            for t, e in self.events
            if e["kind"] == kind
            and e["src"] == src
            and e["dst"] == dst
            and t >= after
            and (before is None or t < before)
            and all(e.get(k) == v for k, v in match.items())
        ]


def distinct(items):
    seen, out = set(), []
    for t, e in items:  # a second job on the same stack (make demo) would repeat each event
        key = (e["kind"], e["src"], e["dst"], e["ts"], e.get("cause"), e.get("protocol"))
        if key not in seen:
            seen.add(key)
            out.append((t, e))
    return out


def log(msg):
    print(f"[e2e {time.strftime('%H:%M:%S')}] {msg}", flush=True)


@pytest.fixture(scope="module")
def story(testbed, flink_job, recorders):
    ev, raw = recorders
    s1, s3 = testbed.src("s1"), testbed.src("s3")
    st = Story(t_start=time.time())

    def wait_for(done, min_s, max_s, since):
        while time.time() - since < max_s:
            if time.time() - since >= min_s and done():
                return
            time.sleep(5)

    def got(kind, src, dst, after, **m):
        return lambda: bool(Story(0, events=distinct(ev.snapshot())).find(kind, src, dst, after, **m))

    testbed("agents-start")
    try:
        log(f"healthy mesh for {HEALTHY_S}s (senders {testbed.site}-s1..s3)")
        time.sleep(HEALTHY_S)
        st.t_fault = time.time()
        testbed("collapse", "a", "10")
        testbed("flip", "b", "alt")
        testbed("block", "c")
        log("faults injected: collapse a, flip b, block c")
        f = st.t_fault

        # s1's exclusive runs stretch under the collapse: wait for the 4th UDP run that
        # test_udp_loss_matches_injected_loss will count — same predicate (dst-a, no error) and
        # same window (ended 6 s before the heal at the latest) — so that at least 3 runs
        # started under loss finished before the heal
        def udp_runs():
            return (
                len(summaries(Story(0, raw=raw.snapshot()), s1, "dst-a", "udp", f + 1, time.time() - 6)) >= 4
            )

        checks = [
            got("throughput_collapse", s1, "dst-a", f),
            got("route_change", s1, "dst-b", f),
            got("unreachable", s3, "dst-c", f),
            udp_runs,
        ]
        wait_for(lambda: all(c() for c in checks), FAULT_MIN_S, FAULT_MAX_S, f)
        st.t_heal = time.time()
        testbed("heal")
        log(f"healed after {st.t_heal - f:.0f}s of faults")
        h = st.t_heal
        checks = [
            got("throughput_recovery", s1, "dst-a", h),
            got("reachable", s3, "dst-c", h),
            got("route_change", s1, "dst-b", h),
        ]
        wait_for(lambda: all(c() for c in checks), 0, RECOVER_MAX_S, h)
        st.t_end = time.time()
        log(f"story over after {st.t_end - st.t_start:.0f}s")
    finally:
        testbed("agents-stop")
    st.events = distinct(ev.snapshot())
    st.raw = raw.snapshot()
    for t, e in st.events:
        log(f"event +{t - st.t_start:6.1f}s {e['kind']:20} {e['src']} → {e['dst']}: {e.get('message', '')}")
    return st


def first_delay(story, kind, src, dst, since, name, **match):
    hits = story.find(kind, src, dst, since, **match)
    assert hits, f"no {kind} on {src} → {dst} after the fault; events: {[e for _, e in story.events]}"
    t, e = hits[0]
    record(f"{name}: s from fault to arrival", t - since)
    record(f"{name}: s from fault to event ts", e["ts"] / 1000 - since)
    assert t - since <= BOUND_S[kind], (
        f"{kind} arrived {t - since:.0f}s after the fault (bound {BOUND_S[kind]}s)"
    )
    return e


def test_collapse_raises_throughput_collapse_on_dst_a(story, testbed):
    e = first_delay(story, "throughput_collapse", testbed.src("s1"), "dst-a", story.t_fault, "collapse dst-a")
    assert e["probe_id"] == "collapse-detector"


def test_blocked_port_raises_unreachable_on_dst_c(story, testbed):
    first_delay(story, "unreachable", testbed.src("s3"), "dst-c", story.t_fault, "blocked port dst-c")


def test_route_flip_is_one_route_change_on_dst_b(story, testbed):
    e = first_delay(story, "route_change", testbed.src("s1"), "dst-b", story.t_fault, "route flip dst-b")
    assert PATH_ALT in e["path_after"] and PATH_MAIN in e["path_before"], e
    during = story.find("route_change", testbed.src("s1"), "dst-b", story.t_fault, story.t_heal)
    assert len(during) == 1, [x for _, x in during]


def test_heal_raises_recovery_and_reachable(story, testbed):
    first_delay(story, "throughput_recovery", testbed.src("s1"), "dst-a", story.t_heal, "recovery dst-a")
    first_delay(story, "reachable", testbed.src("s3"), "dst-c", story.t_heal, "reachable dst-c")
    back = story.find("route_change", testbed.src("s1"), "dst-b", story.t_heal)
    assert len(back) == 1 and PATH_MAIN in back[0][1]["path_after"], [x for _, x in back]


def test_ecmp_and_silent_hop_raise_no_route_change(story, testbed):
    s3 = testbed.src("s3")
    paths = [m for _, m in story.raw if m["schema"] == "path_sample" and m["src"] == s3]
    assert len(paths) >= 10, f"only {len(paths)} traceroutes of dst-c"
    hop2 = {p["addr"] for m in paths for h in m["hops"] if h["ttl"] == 2 for p in h["probes"]}
    assert {"10.66.30.2", "10.66.31.2"} <= hop2, f"ECMP not exercised: hop 2 was only {hop2}"
    hop4 = [p["addr"] for m in paths for h in m["hops"] if h["ttl"] == 4 for p in h["probes"]]
    assert hop4 and all(a is None for a in hop4), f"the silent router answered: {hop4}"
    assert not story.find("route_change", s3, "dst-c", 0), "ECMP or * * * taken for a route change"


def test_untouched_links_raise_nothing(story, testbed):
    # before the faults: no event anywhere but the 64 KB-window host's diagnosis
    before = [e for t, e in story.events if t < story.t_fault and e["kind"] != "diagnosis"]
    assert not before, before
    # s2 → dst-d is never touched: its only event is the seed-002 diagnosis
    d = [e for _, e in story.events if e["dst"] == "dst-d"]
    assert [(e["kind"], e.get("cause")) for e in d] == [("diagnosis", "host_tuning_limited")], d
    assert d[0]["evidence"]["window_bytes"] == 65536
    assert d[0]["evidence"]["window_source"] == "net.ipv4.tcp_wmem", d[0]
    # the receiver's advertised window is recorded (iperf3 3.10+), and it is not what limits s2
    tcp = [
        m
        for _, m in story.raw
        if m["schema"] == "throughput_sample"
        and m["record"] == "summary"
        and m["dst"] == "dst-d"
        and m["protocol"] == "tcp"
        and not m.get("error")
    ]
    assert tcp and all(m.get("snd_wnd_bytes", 0) > 0 for m in tcp), tcp[:1]
    assert d[0]["evidence"]["snd_wnd_bytes"] >= 0.75 * 65536, d[0]
    # links with faults raise only events of their own kinds
    allowed = {
        "dst-a": {"throughput_collapse", "throughput_recovery", "high_loss", "loss_recovery"},
        "dst-b": {"route_change"},
        "dst-c": {"unreachable", "reachable"},
    }
    for _, e in story.events:
        if e["dst"] in allowed and e["kind"] == "probe_request_unserved":
            # a faulted link is suspect more often than its budget allows (reported once a window);
            # a request its agent left unanswered would be a warning
            assert e["severity"] == "info" and e["evidence"]["budget"] in ("link", "host", "mesh"), e
        elif e["dst"] in allowed and e["kind"] != "diagnosis":
            assert e["kind"] in allowed[e["dst"]], e


def records(story, record, src, dst, protocol, after, before):
    return [
        m
        for t, m in story.raw
        if m["schema"] == "throughput_sample"
        and m["record"] == record
        and m["src"] == src
        and m["dst"] == dst
        and m["protocol"] == protocol
        and after * 1000 <= m["ts"] < before * 1000
        and not m.get("error")
    ]


def summaries(story, src, dst, protocol, after, before):
    return records(story, "summary", src, dst, protocol, after, before)


# What bounds a shaped link's measured rate (tests/testbed/testbed.sh): the tbf's queue (latency
# 100 ms) and bucket (burst 256 KiB), each link's one-way delay, and the runs' length (4 s after 3
# s omitted).
TBF_QUEUE_S, TBF_BURST_BYTES, RUN_S = 0.100, 256 * 1024, 4.0
ONE_WAY_S = {"dst-a": 0.070, "dst-b": 0.080}  # RTT 140 ms via ca, 160 ms via cb1


@pytest.mark.parametrize("dst,rate_bps", [("dst-a", 100e6), ("dst-b", 50e6)])
def test_shaped_link_throughput_within_5_percent(story, testbed, dst, rate_bps):
    # A run's figure is iperf3's receiver total over the 4 s the run lasted. The receiver keeps
    # counting while the data in flight and in the tbf queue drains after the sender stops, and
    # the bucket lets a burst through at the start. tbf's queue holds rate × latency + burst
    # (tc-tbf: limit = rate × latency + burst), so at most (one-way delay + latency) × rate + 2 ×
    # burst more than the rate allows, over 4 s: +5.5 % on dst-a, +6.9 % on dst-b (measured here:
    # 50.2, 50.3 and once 50.9 Mbit/s on dst-b's 47.8 of payload, the last above a bound that
    # counted the burst once; the sender's own 1-second figures overshoot more, 52.4, its socket
    # buffer filling). So the median run must carry at least 95 % of the
    # payload rate and at most that plus what can drain: the shaper's rate, within what tbf and
    # TCP allow, rather than a ±5 % window the measurement itself overshoots.
    runs = summaries(story, testbed.src("s1"), dst, "tcp", story.t_start, story.t_fault - 9)  # 3 s omit + 4 s
    assert len(runs) >= 4, f"{len(runs)} healthy runs"
    median = statistics.median(r["bits_per_second"] for r in runs)
    expected = rate_bps * TCP_GOODPUT
    drain = (rate_bps * (ONE_WAY_S[dst] + TBF_QUEUE_S) + 2 * TBF_BURST_BYTES * 8) / RUN_S
    record(
        f"{dst}: median healthy Mbit/s (tbf {rate_bps / 1e6:.0f}, payload {expected / 1e6:.1f}, "
        f"at most {(expected + drain) / 1e6:.1f})",
        median / 1e6,
    )
    assert expected * 0.95 <= median <= expected + drain, (
        f"{median / 1e6:.1f} Mbit/s vs {expected / 1e6:.1f} (95 % of it to {(expected + drain) / 1e6:.1f})"
    )


def test_udp_loss_matches_injected_loss(story, testbed):
    s1 = testbed.src("s1")
    healthy = summaries(story, s1, "dst-a", "udp", story.t_start, story.t_fault - 6)  # ended before it
    lossy = summaries(story, s1, "dst-a", "udp", story.t_fault + 1, story.t_heal - 6)  # runs of 4 s
    assert len(healthy) >= 3 and len(lossy) >= 3, (len(healthy), len(lossy))
    assert max(r["loss_percent"] for r in healthy) <= 0.5, [r["loss_percent"] for r in healthy]
    mean = statistics.mean(r["loss_percent"] for r in lossy)
    record("dst-a: mean UDP loss % under 10 % injected", mean)
    # ~680 datagrams a run: one run's binomial σ ≈ 1.2 points, the mean's ≈ 0.6
    assert abs(mean - 10) <= 2.5, [r["loss_percent"] for r in lossy]


def test_events_reach_influxdb(story, testbed):
    want = {(e["kind"], e["src"], e["dst"]) for _, e in story.events}
    deadline = time.time() + 60
    while True:
        got = {
            (r["kind"], r["src"], r["dst"])
            for r in influx_query(f'SELECT * FROM "daily"."events" WHERE src =~ /^{testbed.site}-/')
        }
        if want <= got or time.time() > deadline:
            break
        time.sleep(2)
    assert want <= got, f"missing in InfluxDB: {want - got}"


# The people on call: the same faults reach the notification sink by email and webhook through the
# alert bridge and Alertmanager (tests/integration/test_alerting.py checks grouping, silences,
# inhibition and restarts on events of its own).
def mail_about(link, subject_part, since, until=None):
    """Mails after `since` whose subject has subject_part and whose body lists the link."""
    return [
        m
        for m in am.mails(subject_part, since)
        if (until is None or m["received"] < until) and link in am.mail_body(m)
    ]


def arrival(story, kind, src, dst, after):
    hits = story.find(kind, src, dst, after)
    assert hits, f"no {kind} on {src} → {dst}"
    return hits[0][0]


def test_collapse_and_unreachable_mail_the_on_call_and_their_recoveries_mail_resolved(story, testbed):
    t = am.timings()
    s1, s3 = testbed.src("s1"), testbed.src("s3")
    for kind, recovery, src, dst in (
        ("throughput_collapse", "throughput_recovery", s1, "dst-a"),
        ("unreachable", "reachable", s3, "dst-c"),
    ):
        link = f"{src} → {dst}"
        raised = arrival(story, kind, src, dst, story.t_fault)
        firing = am.wait_for(
            # called by wait_for within this iteration: it sees this iteration's link, kind and dst
            lambda: mail_about(link, f"{kind} at {dst}", story.t_fault),  # noqa: B023
            t["group_wait"] + 30,
        )
        assert firing and "[FIRING" in firing[0]["subject"], f"no mail for {kind} on {link}"
        delay = firing[0]["received"] - raised
        record(f"mail for {kind} {dst}: s from event to mail", delay)
        # a new group waits group_wait; the story's sites are shared with earlier runs and the chaos
        # tests, so its group may exist already, and then a new alert joins at the next
        # group_interval tick (tests/integration/test_alerting.py times a fresh group to group_wait)
        bound = max(t["group_wait"], t["group_interval"]) + 15
        assert delay <= bound, (
            f"{kind} mailed {delay:.0f}s after the event (group_wait {t['group_wait']}s, group_interval {t['group_interval']}s)"
        )
        assert am.webhooks("dst", dst, story.t_fault), "the webhook receiver got nothing"

        healed = arrival(story, recovery, src, dst, story.t_heal)
        resolved = am.wait_for(
            lambda: [
                m
                for m in mail_about(link, f"{kind} at {dst}", healed)  # noqa: B023  (called within this iteration)
                if link in am.mail_body(m).partition(" resolved:")[2]  # noqa: B023  (the same)
            ],
            t["group_interval"] + 30,
        )
        assert resolved, f"no resolved mail for {kind} on {link}"
        record(f"resolved mail for {kind} {dst}: s from recovery to mail", resolved[0]["received"] - healed)
