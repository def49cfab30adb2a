"""JobManager high availability (LONGHAUL_FLINK_HA=zookeeper; scripts/test-cluster.sh starts it):
two JobManagers elect a leader in ZooKeeper. kill -9 of the leader, with no keeper to resubmit
anything (LONGHAUL_JOB_KEEP=0): the standby takes the same job over, restored from its newest
checkpoint in the HA store, and the killed one, respawned by the supervisor, serves the job again
as the new standby."""

import glob
import os
import signal
import sys
import time
import uuid

import pytest
import requests

# the e2e stories' fixtures and the test libraries (stack, ...), whatever the import order
TESTS = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, os.path.join(TESTS, "..", "ingest"))
sys.path.insert(0, os.path.join(TESTS, "lib"))
sys.path.insert(0, os.path.join(TESTS, "e2e"))
import stack  # noqa: E402  (found through the sys.path entries above)
from conftest import JOB_ARGS, lifecycle, record  # noqa: E402  (the same)

HA = os.environ.get("LONGHAUL_FLINK_HA", "none")
REST = int(os.environ.get("LONGHAUL_FLINK_REST_PORT", "8081"))
# scripts/stack/flink.sh: program and REST address of each JobManager (the standby's port + 100)
JOBMANAGERS = {
    "flink/jobmanager": lifecycle.rest_url(REST),
    "flink/jobmanager-2": lifecycle.rest_url(REST + 100),
}
TAKEOVER_S = 180


def log(msg):
    print(f"[ha {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def log_files(pid):
    """The log4j files a process has open (a JobManager writes flink-*-standalonesession-N-*.log)."""
    out = []
    for fd in glob.glob(f"/proc/{pid}/fd/*"):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if "standalonesession" in target and target.endswith(".log"):
            out.append(target)
    return out


def leader_of(jid):
    """The JobManager program running job `jid`: the one whose JobMaster for it was granted
    leadership, by its log (any JobManager's log may name the job: REST requests)."""
    granted = f"for job {jid} was granted leadership"
    for name in JOBMANAGERS:
        pid = stack.pid(name)
        if pid and any(granted in open(f, errors="replace").read() for f in log_files(pid)):
            return name, pid
    raise AssertionError(f"no JobManager leads job {jid}")


def job(url, jid):
    try:
        return lifecycle.rest(f"/jobs/{jid}", url, timeout=3)
    except (requests.RequestException, ValueError):
        return {}


def running(url, jid):
    j = job(url, jid)
    return (
        j.get("state") == "RUNNING"
        and bool(j.get("vertices"))
        and all(v["status"] == "RUNNING" for v in j["vertices"])
    )


def checkpoints(url, jid):
    return lifecycle.rest(f"/jobs/{jid}/checkpoints", url, timeout=5)


def restored(url, jid):
    """The checkpoint the job was restored from, once it runs again after a takeover (None
    before: a REST endpoint first answers from what it cached of the old leader's job)."""
    if not running(url, jid):
        return None
    try:
        return checkpoints(url, jid)["latest"]["restored"]
    except (requests.RequestException, ValueError, KeyError, TypeError):
        return None


def cancel(name):
    """Ends the job once the stack's JobManager answers again (it may be respawning)."""
    end = time.time() + 120
    while True:
        try:
            return lifecycle.cancel(name)
        except AssertionError:
            if time.time() > end:
                raise
            time.sleep(3)


@pytest.fixture(scope="module")
def failover():
    assert HA == "zookeeper", (
        "this test runs with JobManager HA: LONGHAUL_FLINK_HA=zookeeper make up (scripts/test-cluster.sh)"
    )
    assert os.environ.get("LONGHAUL_JOB_KEEP") == "0", "no keeper: the standby alone must bring the job back"
    name = f"ha{uuid.uuid4().hex[:6]}"
    jid = lifecycle.submit(name, JOB_ARGS)
    try:
        first = JOBMANAGERS["flink/jobmanager"]
        end = time.time() + 60
        while checkpoints(first, jid)["counts"]["completed"] < 2:
            assert time.time() < end, "no two checkpoints within 60 s"
            time.sleep(1)
        leader, pid = leader_of(jid)
        standby = next(u for n, u in JOBMANAGERS.items() if n != leader)
        before = checkpoints(first, jid)["latest"]["completed"]["id"]
        log(f"kill -9 the leading {leader} (pid {pid}); job {jid} at checkpoint {before}")
        t0 = time.time()
        os.kill(pid, signal.SIGKILL)
        while not (point := restored(standby, jid)):
            assert time.time() - t0 < TAKEOVER_S, (
                f"the standby did not run job {jid} within {TAKEOVER_S} s: {job(standby, jid)}"
            )
            time.sleep(1)
        takeover_s = time.time() - t0
        record("ha_takeover_s", takeover_s)
        log(f"the standby runs the job after {takeover_s:.1f} s, restored from checkpoint {point['id']}")
        # the killed one, respawned, answers for the job too (REST goes to the leader)
        back = JOBMANAGERS[leader]
        while not running(back, jid):
            assert time.time() - t0 < TAKEOVER_S, f"the respawned {leader} does not serve job {jid}"
            time.sleep(1)
        respawned = stack.pid(leader) not in (None, pid)
        yield {
            "jid": jid,
            "before": before,
            "restored": point,
            "takeover_s": takeover_s,
            "respawned": respawned,
            "jobs": lifecycle.rest("/jobs/overview", standby, timeout=5)["jobs"],
        }
    finally:
        cancel(name)


def test_the_standby_took_the_same_job_over_from_its_newest_checkpoint(failover):
    assert failover["restored"]["id"] >= failover["before"], failover
    assert not failover["restored"]["is_savepoint"]
    assert failover["takeover_s"] < TAKEOVER_S


def test_nothing_was_resubmitted(failover):
    mine = [j for j in failover["jobs"] if j["jid"] == failover["jid"]]
    assert len(mine) == 1 and mine[0]["state"] == "RUNNING", failover["jobs"]
    named = [j for j in failover["jobs"] if j["name"] == mine[0]["name"]]
    assert len(named) == 1, f"a second job of that name: {named}"


def test_the_killed_jobmanager_was_respawned(failover):
    assert failover["respawned"]
