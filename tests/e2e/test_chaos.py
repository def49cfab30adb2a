"""Chaos on a running story: while dst-a collapses and recovers on the testbed, kill -9 each
service in turn — broker, TaskManager, JobManager, InfluxDB, Telegraf, an agent — and let the
supervisor (supervisord) and the job's keeper bring everything back, as `make up` runs it.

Afterwards: every sample the agents delivered is counted exactly once in InfluxDB, the collapse
was raised once and recovered once (the same episode: the open alert survived the JobManager's
loss), the baseline survived (the collapse is judged against the healthy throughput learnt before
the kills), and the watchdog raised and cleared its own events."""

import collections
import glob
import os
import pathlib
import tempfile
import time
import uuid

import delivered_runs
import flink_job
import kafka
import pytest
import stack
from conftest import (
    CONTRACT,
    NOMINAL,
    ROOT,
    Recorder,
    Testbed,
    import_baselines,
    record,
    runs_lost_or_doubled,
    topic,
    wait_event,
)
from longhaul_contract import telegraf_groups

# dst-a's baseline is imported (import_baselines); the healthy phase lets the agents' first runs and
# the job's checkpoints of that baseline come before the kills: one throughput interval (25 s)
# and its jitter (1 s), checkpoints every 2 s (45 s until 2026-12-03: make test is over its budget)
HEALTHY_S = int(os.environ.get("LONGHAUL_E2E_HEALTHY_S", "30"))
EVENT_WAIT_S = 240  # a collapse or recovery, with a restart on the way
RAW_TOPICS = [topic("raw.throughput"), topic("raw.path"), topic("raw.rtt")]
# The testbed profile, with the out-of-orderness of a broker's restart: a run the agents spooled
# while the one broker was down reached Kafka up to 48 s after its ts, and behind the profile's
# 20 s the other agents' resent runs had carried the watermark past its minute (a local run,
# 2026-12-02: 7 observations of s3 dead-lettered as late, 3 runs missing from two minutes).
# Production's default (2 min) covers a broker's restart; so must the story's, as the scaled-out
# story's does (tests/cluster/test_broker_loss.py).
OUT_OF_ORDERNESS_S = 60
JOB_ARGS_CHAOS = flink_job.testbed_profile({"--out-of-orderness": f"{OUT_OF_ORDERNESS_S}s"})


def log(msg):
    print(f"[chaos {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def job_args_file(args):
    """The job's arguments as the keeper reads them (LONGHAUL_JOB_ARGS_FILE: one a line)."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="chaos-")) / "job.args"
    path.write_text("".join(f"{a}\n" for a in args))
    return path


class Chaos:
    """The story's own testbed, its job kept by the stack's keeper, and what it recorded."""

    def __init__(self, tag):
        self.tb = Testbed(f"lhc{tag[:4]}", f"chaos{tag}")
        self.job = f"longhaul-{self.tb.site}"
        # the stack's job service for this story's job: up.sh starts its keeper (and the watchdog
        # watching it); the keeper submits it with the testbed profile and restores it after a loss
        # a watchdog quicker to judge than in production (1 min grace): the JobManager's loss
        # (~50 s without the job) is then an outage it must raise and clear
        self.env = {
            **os.environ,
            "LONGHAUL_JOB_KEEP": "1",
            "LONGHAUL_JOB_NAME": self.job,
            "LONGHAUL_JOB_ARGS_FILE": str(job_args_file(JOB_ARGS_CHAOS)),
            "LONGHAUL_WATCHDOG_ARGS": "--interval 5s --grace 15s",
        }
        self.kills = {}
        self.events, self.raw = [], []
        self.t_fault = self.t_heal = self.t_stop = 0.0

    def job_healthy(self):
        return stack.healthy("job", self.env)

    def job_resumed(self, since):
        """The job runs every task and has completed a checkpoint after `since` (a lost
        TaskManager leaves the job looking RUNNING until the JobManager notices)."""
        return self.job_healthy() and newest_checkpoint(self.job) > since

    def state(self):
        """What is and is not back, with the logs' last words: the error when a kill is not healed."""
        health = ", ".join(
            f"{s} {'healthy' if stack.healthy(s, self.env) else 'NOT healthy'}"
            for s in ("kafka", "flink", "job")
        )
        age = time.time() - newest_checkpoint(self.job)
        logs = "\n".join(
            [
                stack.log_tail("job", 15, self.env),
                stack.log_tail("kafka", 15, self.env, besides="Failed authentication"),
                stack.log_errors("kafka", 10, self.env),
            ]
        )
        agents = "\n".join(
            f"== {p}\n" + "".join(open(p, errors="replace").readlines()[-5:])
            for p in sorted(glob.glob(str(self.tb.run / "agent-*.log")))
        )
        return (
            f"{health}; newest checkpoint {age:.0f} s ago\njob: {flink_job.last_failure(self.job)}\n"
            f"{logs}\n{agents}"
        )

    def kill(self, name, healthy_when):
        respawn, back = stack.kill9(name, healthy_when, env=self.env, explain=self.state)
        self.kills[name] = (respawn, back)
        record(f"chaos_{name.replace('/', '_')}_respawn_s", respawn)
        record(f"chaos_{name.replace('/', '_')}_healthy_s", back)


def newest_checkpoint(job):
    """When the newest completed checkpoint of any run of `job` was written (0 for none): the
    stack keeps each job's checkpoints in checkpoints/<name>/<job id>/chk-N/_metadata."""
    state = os.environ.get("LONGHAUL_FLINK_STATE_DIR") or str(ROOT / ".stack/run/flink")
    metas = glob.glob(os.path.join(state, "checkpoints", job, "*", "chk-*", "_metadata"))
    return max((os.path.getmtime(m) for m in metas), default=0)


@pytest.fixture(scope="module")
def chaos():
    c = Chaos(uuid.uuid4().hex[:6])
    c.tb("up")
    ev = Recorder([topic("events")], c.tb.site, committed=True)
    watchdog = Recorder([topic("events")], "", committed=True)  # its events name a host, or "*"
    raw = Recorder(RAW_TOPICS, c.tb.site, committed=False)
    s1 = c.tb.src("s1")
    try:
        up = stack.run("bash scripts/stack/up.sh", c.env, check=False, timeout=600)
        assert up.returncode == 0, up.stderr[-3000:]
        assert c.job_healthy(), "the keeper did not start the story's job"
        c.tb("agents-start")
        import_baselines(c.tb, {("s1", "dst-a"): NOMINAL["dst-a"]})
        log(f"healthy mesh for {HEALTHY_S}s, then kill -9 the broker and the TaskManager")
        time.sleep(HEALTHY_S)
        t = time.time()
        c.kill("kafka", lambda: stack.healthy("kafka", c.env) and c.job_resumed(t))
        t = time.time()
        c.kill("flink/taskmanager", lambda: c.job_resumed(t))
        c.t_fault = time.time()
        c.tb("collapse", "a", "10")
        log("dst-a collapsed; kill -9 the JobManager (no HA: the keeper resubmits from the last checkpoint)")
        t = time.time()
        c.kill("flink/jobmanager", lambda: c.job_resumed(t))
        assert wait_event(ev, "throughput_collapse", s1, "dst-a", c.t_fault, EVENT_WAIT_S), "no collapse"
        c.kill("influxdb", lambda: stack.healthy("influxdb", c.env))
        c.kill("telegraf", lambda: stack.healthy("telegraf", c.env))
        c.t_heal = time.time()
        c.tb("heal")
        agent = f"tb/{c.tb.prefix}-agent-s1"
        c.kill(agent, lambda: True)
        assert wait_event(ev, "throughput_recovery", s1, "dst-a", c.t_heal, EVENT_WAIT_S), "no recovery"
        # the watchdog's own events about the JobManager's loss, raised and cleared
        end = time.time() + 120
        while time.time() < end and not watchdog_closed(watchdog.snapshot(), c.job, c.tb.site):
            time.sleep(5)
        # the minutes the links passed since the job's last restore written before the agents stop
        restored = flink_job.restored_at(c.job)
        wait = delivered_runs.closed_after_restore(restored, OUT_OF_ORDERNESS_S) - time.time()
        log(f"the job last restored {time.time() - restored:.0f} s ago: {max(wait, 0):.0f} s to its minutes")
        time.sleep(max(wait, 0))
    finally:
        c.tb("agents-stop")
        c.t_stop = time.time()
        # as make down does: the watchdog, the keeper, then the job with a savepoint
        stack.run("stop_watchdog; stop_job", c.env, check=False)
        c.tb("down")
    # the job stopped with a savepoint: its last windows are in Kafka; Telegraf's last batch in InfluxDB
    log(f"Telegraf caught up in {kafka.wait_caught_up(telegraf_groups()):.1f} s")
    time.sleep(2)  # the recorders' last poll
    c.events, c.raw, c.watchdog = ev.snapshot(), raw.snapshot(), watchdog.snapshot()
    for r in (ev, raw, watchdog):
        r.close()
    for _t, e in c.events:
        log(f"event {e['kind']:20} {e['src']} → {e['dst']}: {e.get('message', '')}")
    return c


WATCHDOG_ALERT = "pipeline_degraded"
WATCHDOG_KINDS = (WATCHDOG_ALERT, CONTRACT.recovery_of(WATCHDOG_ALERT))


def watchdog_events(items, job, site):
    """The events of the watchdog that watches `job` (each names it in evidence.watchdog) about
    the pipeline or this story's agents: hosts of earlier tests fall silent for good, rightly."""
    return [
        e
        for _, e in items
        if e["kind"] in WATCHDOG_KINDS
        and (e.get("evidence") or {}).get("watchdog") == job
        and (e["src"] == "*" or e["src"].startswith(site))
    ]


def watchdog_closed(items, job, site):
    """True once the watchdog raised the job's loss and every episode it opened is closed."""
    evs = watchdog_events(items, job, site)
    opened = {e["episode_id"] for e in evs if e["kind"] == WATCHDOG_ALERT}
    closed = {e["episode_id"] for e in evs if e["kind"] != WATCHDOG_ALERT}
    job_lost = any(e["evidence"].get("component") == "flink_job" for e in evs if e["kind"] == WATCHDOG_ALERT)
    return job_lost and opened <= closed


def test_every_service_came_back_within_30_s_of_its_kill(chaos):
    for name, (respawn, _) in chaos.kills.items():
        assert respawn <= 30, f"{name} respawned {respawn:.1f} s after kill -9"
    assert set(chaos.kills) >= {"kafka", "flink/taskmanager", "flink/jobmanager", "influxdb", "telegraf"}


def test_the_collapse_was_raised_once_and_recovered_once_in_the_same_episode(chaos):
    s1 = chaos.tb.src("s1")
    mine = [e for _, e in chaos.events if e["src"] == s1 and e["dst"] == "dst-a"]
    collapses = [e for e in mine if e["kind"] == "throughput_collapse"]
    recoveries = [e for e in mine if e["kind"] == "throughput_recovery"]
    assert len(collapses) == 1, collapses
    assert len(recoveries) == 1, recoveries
    assert recoveries[0]["episode_id"] == collapses[0]["episode_id"], "the open alert did not survive"


def test_no_event_was_raised_twice(chaos):
    keys = collections.Counter(
        (e["kind"], e["src"], e["dst"], e["ts"], e.get("episode_id"), e.get("protocol"))
        for _, e in chaos.events
    )
    assert [k for k, n in keys.items() if n > 1] == []


def test_the_baseline_survived_the_kills(chaos):
    # dst-a's collapse is judged against the baseline learnt before the broker and TaskManager
    # kills: a lost baseline would have relearnt on the collapsed link and raised nothing. Only
    # dst-a's: the story's other links learn their baselines from scratch during the kills, and a
    # low run there can be real on this testbed. s2 and s3 share dst-c's 200 Mbit/s queue (two
    # iperf3 servers, where a perfSONAR host's one would refuse the second test): s2's 64 KB-window
    # run got 0.92 Mbit/s beside s3's, 2.6 alone (measured 2026-12-03), and a local chaos run
    # raised s2 → dst-c's collapse from it. CI's run of 7dcda4a raised one on s1 → dst-b, whose
    # cause went unrecorded: the assertion below now prints every event. test_scenarios.py judges
    # untouched links, without kills.
    s1 = chaos.tb.src("s1")
    collapses = [
        e
        for _, e in chaos.events
        if e["kind"] == "throughput_collapse" and e["src"] == s1 and e["dst"] == "dst-a"
    ]
    assert len(collapses) == 1, [(e["src"], e["dst"], e["message"]) for _, e in chaos.events]
    (collapse,) = collapses
    ev = collapse["evidence"]
    assert ev["baseline_bps"] > 50e6, f"collapse judged against {ev['baseline_bps']} bit/s: {collapse}"
    assert ev["history_runs"] >= 5, f"a baseline relearnt after a kill: {collapse}"


def test_every_delivered_run_is_in_influxdb_exactly_once(chaos):
    checked, missing, doubled = runs_lost_or_doubled(chaos.raw, chaos.tb.site, chaos.t_stop)
    record("chaos_runs_checked", checked)
    assert checked > 50
    assert missing == {} and doubled == {}, f"lost {missing}; more than delivered {doubled}"


def test_the_watchdog_raised_and_cleared_its_own_events(chaos):
    evs = watchdog_events(chaos.watchdog, chaos.job, chaos.tb.site)
    for e in evs:
        log(f"watchdog {e['kind']:18} {e['evidence'].get('component')}: {e['message']}")
    # the JobManager's loss (~1 min without the job) at least: raised, then cleared with the job back
    assert watchdog_closed(chaos.watchdog, chaos.job, chaos.tb.site), [(e["kind"], e["message"]) for e in evs]
