"""bench/fleet_verdict: whether a fleet run was held (the knee of bench.sh stops at the first not)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from fleet_verdict import verdict


def run(taken=1000, due=1000, gave_up=0, p99=70.7, without=0, last_lag=(0, 0, 0), taskmanager_us=2300.0):
    """A fleet.py result of 1,000 s at 1 result/s, shaped as fleet.py emits it."""
    return {
        "simulator": {"taken": taken, "results_due": due, "gave_up": gave_up},
        "freshness": {"results": 900, "without_point": without, "taken_to_influx_s": {"p99": p99}},
        "job_pending_records": {"last": list(last_lag), "max": max(last_lag)},
        "cpu": {"us_per_record": {"taskmanager": taskmanager_us, "other": 5e6}, "seconds": 1000},
        "bridge_cpu_cores": 0.2,
    }


def test_a_fleet_with_nothing_lost_fresh_and_caught_up_is_held():
    v = verdict(run(), 1.0)
    assert v["holds"] and v["why"] == []
    # 2,300 µs × 1,000 results over 1,000 s = 0.0023 cores, plus the bridge's; "other" is not the stack
    assert v["stack_and_bridge_cores"] == 0.2 and v["within_half"]


def test_each_limit_says_why_it_was_not_held():
    assert verdict(run(taken=999), 1.0)["why"] == ["lost: 999 of 1000 taken, 0 given up"]
    assert verdict(run(gave_up=1), 1.0)["why"][0].startswith("lost:")
    assert verdict(run(p99=90.5), 1.0)["why"] == [
        "stale: p99 90.5 s to InfluxDB, 0 results without their point"
    ]
    assert verdict(run(p99=None), 1.0)["why"][0].startswith("stale:")
    assert verdict(run(without=2), 1.0)["why"][0].startswith("stale:")  # 2 of 900 > 0.1 %
    # 30 s of the fleet's rate behind at the end is caught up; more is a lag that grows
    assert verdict(run(last_lag=(10, 30, 20)), 1.0)["holds"]
    assert verdict(run(last_lag=(10, 31, 20)), 1.0)["why"] == [
        "behind: the job's sources 31 records behind at the end (max 31)"
    ]


def test_the_stack_over_half_the_machine_is_reported_apart_from_the_verdict():
    v = verdict(run(taskmanager_us=2e6), 1.0)  # 2 s of CPU per result at 1 a second: 2 cores
    assert v["holds"] and not v["within_half"] and v["stack_and_bridge_cores"] == 2.2
