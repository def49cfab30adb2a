"""The Flink job lifecycle for tests and benchmarks, through `bin/longhaul job` — the one client
of Flink's REST API (operator/flink). Addresses come from LONGHAUL_FLINK and LONGHAUL_KAFKA."""

import os
import pathlib
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


def rest_url():
    """Flink's REST API, as every client of the stack finds it (LONGHAUL_FLINK)."""
    return os.environ.get("LONGHAUL_FLINK", "http://127.0.0.1:8081")


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
    flink = rest_url()
    vertices = requests.get(f"{flink}/jobs/{job_id}", timeout=10).json()["vertices"]
    return {v["name"]: v["parallelism"] for v in vertices}


def taskmanagers(job_id):
    """The TaskManagers (their ids) running any subtask of a running job, by Flink's REST API."""
    flink = rest_url()
    tms = set()
    for v in requests.get(f"{flink}/jobs/{job_id}", timeout=10).json()["vertices"]:
        for tm in requests.get(f"{flink}/jobs/{job_id}/vertices/{v['id']}/taskmanagers", timeout=10).json()[
            "taskmanagers"
        ]:
            tms.add(tm.get("taskmanager-id") or tm.get("endpoint") or tm["host"])
    return tms


def cancel(name):
    """Ends job `name`: stopped after a savepoint, which commits the Kafka transactions it holds
    open (a canceled job leaves them open until their timeout, and read_committed consumers of
    the same partitions, such as the next test's, wait behind them); canceled if it cannot save."""
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
        runs = [
            j
            for j in requests.get(f"{flink}/jobs/overview", timeout=10).json()["jobs"]
            if j["name"] == job_name(name)
        ]
        if not runs:
            return f"(no run of {job_name(name)} on {flink})"
        newest = max(runs, key=lambda j: j["start-time"])
        hist = (
            requests.get(f"{flink}/jobs/{newest['jid']}/exceptions", timeout=10)
            .json()
            .get("exceptionHistory")
            or {}
        )
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
    flink = rest_url()
    total = 0
    for v in requests.get(f"{flink}/jobs/{job_id}", timeout=10).json()["vertices"]:
        url = f"{flink}/jobs/{job_id}/vertices/{v['id']}/subtasks/metrics"
        ids = [
            m["id"]
            for m in requests.get(url, timeout=10).json()
            if m["id"].endswith(".numLateRecordsDropped")
        ]
        if ids:
            for m in requests.get(url, params={"get": ",".join(ids)}, timeout=10).json():
                total += int(m.get("sum", 0))
    return total


def restarts(job_id):
    """How many times the running job has restarted (Flink's numRestarts), by its REST API."""
    flink = rest_url()
    (m,) = requests.get(f"{flink}/jobs/{job_id}/metrics", params={"get": "numRestarts"}, timeout=10).json()
    return int(m["value"])
