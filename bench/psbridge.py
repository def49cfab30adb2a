"""The pScheduler bridge's throughput: results/s from pScheduler's archivers to samples acknowledged
by Kafka, through the agent as bridge (perfsonar/psbridge) on the native stack, security on.

Kafka: --results archive messages (the golden throughput, trace and rtt results in turn, each
with a fresh id) produced at once to the archivers' topic over the archiver listener; timed from
the first produce to the bridge having taken all and Kafka having acknowledged every sample.
HTTP: as many results posted over TLS with the token by --clients concurrent archivers.

python bench/psbridge.py --results 3000 --clients 4"""

import argparse
import concurrent.futures
import json
import pathlib
import tempfile
import threading
import time

import common
import requests
from psbridge import TOPIC, Bridge, archive, archiver_producer

CASES = [
    ("throughput", "iperf3-tcp-2streams-tbf20mbit"),
    ("path", "traceroute-ecmp-3-hops"),
    ("rtt", "ping-diags-command-line"),
]


def results(n, tag):
    return [archive(*CASES[i % len(CASES)], f"{tag}-s{i % 50}", f"{tag}-d") for i in range(n)]


def drained(bridge, taken_key, n):
    """Waits until the bridge took n more results and Kafka acknowledged every spooled sample."""

    def ok(h):
        full = requests.get(bridge.health_url, timeout=5).json()
        return h["by_input"].get(taken_key, 0) >= n and full["spool"]["depth_samples"] == 0

    return bridge.wait(ok, f"{n} results over {taken_key} published", timeout_s=600)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument(
        "--fsync", default="always", help="the spool's fsync policy (always, the default, or interval, never)"
    )
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bridge = Bridge(pathlib.Path(tmp), a.fsync)
        print(f"spool fsync: {a.fsync}")
        bridge.start()
        try:
            tag = common.tag("psb")
            batch = [json.dumps(m).encode() for m in results(a.results, tag)]
            p = archiver_producer()
            t0 = time.time()
            for v in batch:
                p.produce(TOPIC, value=v)
                p.poll(0)
            p.flush(120)
            h = drained(bridge, "kafka", a.results)
            dt = time.time() - t0
            print(
                f"kafka archiver: {a.results} results in {dt:.1f} s = {a.results / dt:.0f} results/s, "
                f"{h['samples'] / dt:.0f} samples/s (accepted {h['accepted']}, duplicates {h['duplicates']})"
            )

            posts = [json.dumps(m) for m in results(a.results, common.tag("psb"))]
            s0 = h["samples"]
            local = threading.local()

            def post(body):
                # one keep-alive session per archiver thread, as a long-lived client would
                if not hasattr(local, "s"):
                    local.s = requests.Session()
                return local.s.post(
                    bridge.url, data=body, headers=bridge.headers(), verify=bridge.ca, timeout=30
                ).status_code

            t0 = time.time()
            with concurrent.futures.ThreadPoolExecutor(a.clients) as ex:
                codes = list(ex.map(post, posts))
            h = drained(bridge, "http", a.results)
            dt = time.time() - t0
            assert codes.count(200) == a.results, {c: codes.count(c) for c in set(codes)}
            print(
                f"http archiver ({a.clients} clients): {a.results} results in {dt:.1f} s = {a.results / dt:.0f} results/s, "
                f"{(h['samples'] - s0) / dt:.0f} samples/s"
            )
        finally:
            bridge.stop()


if __name__ == "__main__":
    main()
