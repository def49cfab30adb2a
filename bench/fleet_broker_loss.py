"""A broker lost while the fleet posts (bench/fleet.py --kill-broker N@S, on the scaled-out stack of
scripts/test-cluster.sh fleet): S seconds after the simulator starts, kill -9 of broker N; its
supervisor starts it again. What it measures: when the process is back, when the leaders dropped it
from their in-sync replicas, how many partitions were under-replicated at most, and from when all
had their three replicas in sync again. What it leaves to the fleet's own figures: that no
result was lost, and how fresh the statistics stayed."""

import os
import signal
import threading
import time

import common
import stack  # tests/lib (common puts it on the path): the stack's processes


def parse(spec):
    """N@S: broker N (1-based), S seconds into the run."""
    broker, _, at = spec.partition("@")
    if not broker.isdigit() or not at.isdigit() or int(broker) < 1:
        raise SystemExit(f"--kill-broker {spec!r}: want BROKER@SECONDS, e.g. 2@120")
    return int(broker), int(at)


def proc_name(broker):
    """The supervised process of broker N, as scripts/stack/kafka.sh names it (kafka_proc)."""
    return stack.run(f"kafka_proc {broker}").stdout.strip()


def under_replicated():
    """Partitions with fewer in-sync replicas than replicas, over every topic of the cluster."""
    md = common.kafka.admin().list_topics(timeout=30)
    return sum(1 for t in md.topics.values() for p in t.partitions.values() if len(p.isrs) < len(p.replicas))


class BrokerLoss(threading.Thread):
    """Kills the broker, then watches the cluster's partitions for `watch_s`: when some first had
    fewer in-sync replicas than replicas (the leaders dropped the dead broker from their ISR) and
    when the last of them had all again (its successor caught up)."""

    def __init__(self, spec, watch_s=180):
        super().__init__(daemon=True)
        self.broker, self.at = parse(spec)
        self.watch_s = watch_s
        self.result = {"broker": self.broker, "at_s": self.at}

    def run(self):
        time.sleep(self.at)
        name = proc_name(self.broker)
        old = stack.pid(name)
        t0 = time.time()
        os.kill(old, signal.SIGKILL)
        respawned, looks = None, []
        while time.time() - t0 < self.watch_s:
            t = round(time.time() - t0, 1)
            if respawned is None and stack.pid(name) not in (None, old):
                respawned = t
            looks.append((t, under_replicated()))
            time.sleep(1)
        self.result |= {"respawned_s": respawned} | replicas_back(looks)


def replicas_back(looks):
    """From (seconds after the kill, partitions under-replicated) looks: when some first were (the
    leaders dropped the dead broker from their ISR), how many at most, and from when none was again
    (None while some still are, or when none ever was: the loss was not seen)."""
    shrunk = next((t for t, n in looks if n), None)
    in_sync = None
    for t, n in looks:
        in_sync = None if n else (in_sync if in_sync is not None else t)
    return {
        "isr_shrunk_s": shrunk,
        "under_replicated_max": max((n for _, n in looks), default=0),
        "all_in_sync_from_s": in_sync if shrunk is not None else None,
    }
