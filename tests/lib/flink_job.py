"""The Flink job lifecycle for tests and benchmarks, through `bin/longhaul job` — the one client
of Flink's REST API (operator/flink). Addresses come from LONGHAUL_FLINK and LONGHAUL_KAFKA."""

import os
import pathlib
import re
import subprocess

import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "bin" / "longhaul"
# the jar `make build` writes (scripts/stack/defaults.env names it so for the stack's keeper)
JAR = os.environ.get("LONGHAUL_FLINK_JAR") or str(ROOT / "bin" / "longhaul-flink.jar")
TESTBED_PROFILE = ROOT / "tests" / "testbed" / "job-profile.args"


# Every job's name starts so: the flink user's ACLs cover only the consumer groups and
# transactional ids under it (operator/setup.JobPrefix).
PREFIX = "longhaul-"


def rest_url(port=None):
    """Flink's REST API, as every client of the stack finds it (LONGHAUL_FLINK); with `port`, the
    JobManager at that port of the same host (a standby's)."""
    url = os.environ.get("LONGHAUL_FLINK", "https://127.0.0.1:8081")
    return url if port is None else re.sub(r":\d+$", f":{port}", url.rstrip("/"))


def tls():
    """How requests reaches an https REST API (scripts/stack/flink.sh): presenting the stack's REST
    certificate (LONGHAUL_FLINK_CERT, its key and certificate in one file) and trusting it alone."""
    cert = os.environ.get("LONGHAUL_FLINK_CERT", "")
    return {"cert": cert, "verify": cert}


def rest(path, url=None, timeout=10, **params):
    """GET `path` of Flink's REST API (or of the JobManager at `url`): its JSON answer."""
    url = url or rest_url()
    kw = tls() if url.startswith("https://") else {}
    r = requests.get(f"{url}{path}", params=params or None, timeout=timeout, **kw)
    r.raise_for_status()
    return r.json()


def job_name(name):
    """The job name of a test's or benchmark's run name."""
    return name if name.startswith(PREFIX) else PREFIX + name


def _job(*args, timeout_s=240):
    r = subprocess.run(
        [str(CLI), "job", *args], capture_output=True, text=True, timeout=timeout_s, env=os.environ
    )
    if r.returncode != 0:
        raise AssertionError(
            f"longhaul job {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[-3000:]}"
        )
    return r.stdout.strip()


def submit(name, args, replace=True, restore=None, wait="2m"):
    """Starts job `name` (cancelling a running one of that name unless replace is False) and
    waits until every task runs; returns its id. `args` are the job's arguments."""
    flags = ["--name", job_name(name), "--wait", wait, "--jar", JAR]
    if replace:
        flags.append("--replace")
    if restore:
        flags += ["--from-savepoint", restore]
    return _job("submit", *flags, "--", *args).splitlines()[-1]


def stop(name):
    """Stops job `name` after a savepoint; returns the savepoint's location."""
    return _job("stop", "--name", job_name(name)).splitlines()[-1]


def parallelism(job_id):
    """The parallelism of each operator chain of a running job, by Flink's REST API."""
    vertices = rest(f"/jobs/{job_id}")["vertices"]
    return {v["name"]: v["parallelism"] for v in vertices}


def taskmanagers(job_id):
    """The TaskManagers (their ids) running any subtask of a running job, by Flink's REST API."""
    tms = set()
    for v in rest(f"/jobs/{job_id}")["vertices"]:
        for tm in rest(f"/jobs/{job_id}/vertices/{v['id']}/taskmanagers")["taskmanagers"]:
            tms.add(tm.get("taskmanager-id") or tm.get("endpoint") or tm["host"])
    return tms


def cancel(name):
    """Ends job `name`: stopped after a savepoint, which commits what its Kafka transactions hold
    (a cancel aborts them: the last checkpoint's records are lost); canceled if it cannot save,
    and `longhaul job cancel` then aborts any transaction of the job left open (one would hold
    read_committed consumers of its partitions, such as the next test's, until its timeout)."""
    try:
        _job("stop", "--name", job_name(name))
    except AssertionError:
        _job("cancel", "--name", job_name(name))


def states(name):
    """The states of the cluster's jobs named `name`, newest listed first by Flink."""
    out = _job("list")
    return [line.split()[1] for line in out.splitlines()[1:] if line.split()[-1] == job_name(name)]


def testbed_profile(overrides=None):
    """The job arguments of a testbed story (tests/testbed/job-profile.args), shared with make demo;
    `overrides` ({"--flag": value}) replaces the value of a flag the profile sets, or adds it."""
    args = []
    for line in TESTBED_PROFILE.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            args.append(line)
    for flag, value in (overrides or {}).items():
        if flag in args:
            args[args.index(flag) + 1] = str(value)
        else:
            args += [flag, str(value)]
    return args


def last_failure(name, lines=12):
    """Why job `name` last failed, for an error message: the newest entry of Flink's exception
    history of its newest run — the exception and its "Caused by" chain — or why there is none."""
    flink = rest_url()
    try:
        runs = [j for j in rest("/jobs/overview")["jobs"] if j["name"] == job_name(name)]
        if not runs:
            return f"(no run of {job_name(name)} on {flink})"
        newest = max(runs, key=lambda j: j["start-time"])
        hist = rest(f"/jobs/{newest['jid']}/exceptions").get("exceptionHistory") or {}
    except (requests.RequestException, ValueError, KeyError) as e:
        return f"(Flink's REST API did not answer: {e})"
    entries = hist.get("entries") or []
    if not entries:
        return f"{newest['jid']} {newest['state']}: no failure recorded"
    trace = entries[0].get("stacktrace", "").splitlines()
    chain = [ln for ln in trace if not ln.startswith("\t")][:lines]
    return f"{newest['jid']} {newest['state']}, {len(entries)} failure(s), newest:\n" + "\n".join(chain)


def late_dropped(job_id):
    """How many records the running job's windows dropped as late (behind the watermark): the sum
    of every operator's numLateRecordsDropped over its subtasks, by Flink's REST API (what the
    watchdog's late check reads, operator/flink/late.go)."""
    total = 0
    for v in rest(f"/jobs/{job_id}")["vertices"]:
        path = f"/jobs/{job_id}/vertices/{v['id']}/subtasks/metrics"
        ids = [m["id"] for m in rest(path) if m["id"].endswith(".numLateRecordsDropped")]
        if ids:
            for m in rest(path, get=",".join(ids)):
                total += int(m.get("sum", 0))
    return total


def restored_at(name):
    """When the newest run of job `name` last began restoring its state (epoch s): its restore
    from a checkpoint or savepoint at submission, or its newest failover's; 0 if it never did
    (Flink's checkpoint statistics, latest.restored)."""
    runs = [j for j in rest("/jobs/overview")["jobs"] if j["name"] == job_name(name)]
    if not runs:
        return 0.0
    newest = max(runs, key=lambda j: j["start-time"])
    restored = rest(f"/jobs/{newest['jid']}/checkpoints").get("latest", {}).get("restored")
    return restored["restore_timestamp"] / 1000 if restored else 0.0


def restarts(job_id):
    """How many times the running job has restarted (Flink's numRestarts), by its REST API."""
    (m,) = rest(f"/jobs/{job_id}/metrics", get="numRestarts")
    return int(m["value"])
