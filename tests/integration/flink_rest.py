"""Submit, watch and cancel a job on the real Flink cluster through its REST API."""
import pathlib
import time

import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]
JAR = ROOT / "bin" / "longhaul-flink.jar"
MAIN = "org.longhaul.flink.jobs.LinkMonitorJob"


def submit(rest, args):
    with open(JAR, "rb") as f:
        up = requests.post(f"{rest}/jars/upload", files={"jarfile": (JAR.name, f, "application/x-java-archive")}, timeout=60)
    up.raise_for_status()
    jar_id = up.json()["filename"].rsplit("/", 1)[-1]
    run = requests.post(f"{rest}/jars/{jar_id}/run", json={"entryClass": MAIN, "programArgsList": args}, timeout=120)
    assert run.ok, run.text
    return jar_id, run.json()["jobid"]


def wait_running(rest, job_id, timeout_s=60):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        job = requests.get(f"{rest}/jobs/{job_id}", timeout=10).json()
        vertices = job.get("vertices", [])
        if job.get("state") == "RUNNING" and vertices and all(v["status"] == "RUNNING" for v in vertices):
            return job
        if job.get("state") in ("FAILED", "CANCELED", "FINISHED"):
            exc = requests.get(f"{rest}/jobs/{job_id}/exceptions", timeout=10).json()
            raise AssertionError(f"job {job_id} {job['state']}: {str(exc)[:2000]}")
        time.sleep(1)
    raise AssertionError(f"job {job_id} not RUNNING within {timeout_s}s")


def cancel(rest, job_id, jar_id):
    requests.patch(f"{rest}/jobs/{job_id}", params={"mode": "cancel"}, timeout=10)
    deadline = time.time() + 30
    while time.time() < deadline and requests.get(f"{rest}/jobs/{job_id}", timeout=10).json().get("state") != "CANCELED":
        time.sleep(0.5)
    requests.delete(f"{rest}/jars/{jar_id}", timeout=10)
