"""The job's sinks (Telegraf, and so InfluxDB's writes) stopped while a benchmark reads: the job's
own rate, as where its sinks run on machines of their own (docs/kubernetes-sizing.md), not
sharing this machine's two cores with it. They lose nothing: Telegraf commits an offset only once
InfluxDB has the point, so started again it writes all the run left, and `drained_s` times that.

    with sinks.stopped() as drained:
        ...  # the timed read
    drained["s"]  # seconds from Telegraf's start until its groups had committed everything"""

import contextlib
import time

import common  # noqa: F401  (puts tests/lib and ingest on the path)
import kafka
import stack
from longhaul_contract import telegraf_groups


@contextlib.contextmanager
def stopped(drain_timeout_s=1800):
    """Stops the stack's Telegraf for the block; starts it after, waits until it is healthy and its
    consumer groups have committed every record of their topics, and puts the seconds that took in
    the dict the block was given (key "s")."""
    drained = {}
    stack.run("stop_telegraf")
    try:
        yield drained
    finally:
        t0 = time.time()
        # the stack's own wait (scripts/stack/lib.sh): it gives up early if supervisord gives up on it
        if stack.run(
            "start_telegraf && WAIT_PID_OF=telegraf wait_for 120 health_telegraf", check=False
        ).returncode:
            raise SystemExit(f"Telegraf not healthy 120 s after its start: {stack.log_tail('telegraf')}")
        kafka.wait_caught_up(telegraf_groups(), timeout_s=drain_timeout_s)
        drained["s"] = round(time.time() - t0, 1)
