"""Whether this machine held a fleet run of bench/fleet.py, and each reason it did not."""

import os

# What "the machine holds this fleet" means (issue 45's goals): nothing lost, each result's 1m point
# readable within FRESH_P99_S at p99, the job's Kafka lag flat at the end, and (reported apart, as
# the goal's second half) the stack within half the machine's cores.
FRESH_P99_S = 90
LAG_FLAT_S = 30  # the job's pending records at the end at most this many seconds of the fleet's rate


def verdict(res, results_per_s):
    """Whether the machine held the fleet, and each reason it did not (bench.sh's knee stops at the
    first size that is not held)."""
    sim, fresh, lag = res["simulator"], res["freshness"], res["job_pending_records"]
    why = []
    if sim["taken"] < sim["results_due"] or sim["gave_up"]:
        why.append(f"lost: {sim['taken']} of {sim['results_due']} taken, {sim['gave_up']} given up")
    p99 = fresh["taken_to_influx_s"]["p99"]
    if p99 is None or p99 > FRESH_P99_S or fresh["without_point"] > 0.001 * max(fresh["results"], 1):
        why.append(f"stale: p99 {p99} s to InfluxDB, {fresh['without_point']} results without their point")
    end_lag = max(lag["last"], default=0)
    if end_lag > LAG_FLAT_S * results_per_s:
        why.append(f"behind: the job's sources {end_lag} records behind at the end (max {lag['max']})")
    cpu = res["cpu"] or {}
    us = sum(v for k, v in cpu.get("us_per_record", {}).items() if k != "other")
    stack = us * sim["taken"] / 1e6 / max(cpu.get("seconds", 1), 1) + res["bridge_cpu_cores"]
    half = (os.cpu_count() or 2) / 2
    return {
        "holds": not why,
        "why": why,
        "stack_and_bridge_cores": round(stack, 2),
        "within_half": stack <= half,
    }
