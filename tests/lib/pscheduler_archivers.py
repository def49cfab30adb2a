"""pScheduler's two archivers as the tests drive them, each from an archive file that `longhaul admin
add-pscheduler-host` wrote: the Kafka plugin through kafka_archiver_plugin.py (kafka-python, one
producer per result), and an HTTP archiver that does what pscheduler-archiver-http does (POST or
PUT of the result with the archive's _headers, the bridge's certificate verified, any answer
outside 2xx or a failed connection retried by its retry-policy)."""

import json
import pathlib
import subprocess
import sys
import time

import requests

PLUGIN = pathlib.Path(__file__).with_name("kafka_archiver_plugin.py")


def archive_data(path, archiver):
    spec = json.loads(pathlib.Path(path).read_text())
    assert spec["archiver"] == archiver, spec["archiver"]
    return spec["data"]


def kafka_plugin(archive_path, result, timeout_s=90):
    """One result through the Kafka plugin's code path; its answer ({"succeeded": …})."""
    r = subprocess.run(
        [sys.executable, "-I", str(PLUGIN), str(archive_path)],
        input=json.dumps(result),
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def iso_seconds(d):
    """PT1M → 60, PT10M → 600, PT30S → 30 (the retry-policy's waits)."""
    assert d.startswith("PT"), d
    n, unit = float(d[2:-1]), d[-1]
    return n * {"S": 1, "M": 60, "H": 3600}[unit]


class HttpArchiver:
    """pscheduler-archiver-http for one archive. `ca` stands for the stack's CA installed in the
    host's system store (what `verify-ssl` trusts); `time_scale` shrinks the policy's waits so a
    test waits seconds where pScheduler waits minutes."""

    def __init__(self, archive_path, ca, time_scale=1 / 60):
        self.data = archive_data(archive_path, "http")
        self.ca, self.scale = ca, time_scale
        self.attempts = []  # (status or error, seconds since the first)

    def waits(self):
        for step in self.data.get("retry-policy", []):
            for _ in range(step["attempts"]):
                yield iso_seconds(step["wait"]) * self.scale

    def _once(self, result):
        verify = self.ca if self.data.get("verify-ssl", False) else False
        op = requests.put if self.data.get("op", "post") == "put" else requests.post
        try:
            r = op(
                self.data["_url"],
                data=json.dumps(result),
                headers=self.data.get("_headers", {}),
                verify=verify,
                timeout=30,
            )
            return r.status_code
        except requests.ConnectionError as e:
            return f"connection failed: {type(e).__name__}"

    def archive(self, result):
        """Posts until a 2xx answer or the policy is spent; returns the last status."""
        start, waits = time.time(), self.waits()
        while True:
            status = self._once(result)
            self.attempts.append((status, round(time.time() - start, 1)))
            if isinstance(status, int) and 200 <= status < 300:
                return status
            wait = next(waits, None)
            if wait is None:
                return status
            time.sleep(wait)
