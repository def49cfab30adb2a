"""bench/fleet_freshness: a fleet run's freshness, and why each late point was late."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from fleet_freshness import freshness

T0 = 1_800_000_000_000  # a minute's start, ms


def result(minute, done_s, posted_s=None, attempts=1, dst="b"):
    """The latencybg result of link a → dst whose run started `minute` minutes after T0."""
    start = T0 + minute * 60_000
    return {
        "test": "latencybg",
        "code": 200,
        "src": "a",
        "dst": dst,
        "start_ms": start,
        "ready_ms": start + 60_000,
        "posted_ms": start + 60_000 if posted_s is None else T0 + posted_s * 1000,
        "done_ms": T0 + done_s * 1000,
        "attempts": attempts,
    }


def points(*seen, dst="b"):
    """The 1m points of link a → dst: window m (ending at minute m + 1) first seen at seen[m]."""
    return {("a", dst, T0 + (m + 1) * 60_000): s / 1000 + T0 / 1000 for m, s in enumerate(seen)}


def test_a_result_is_fresh_when_its_links_next_result_closes_its_minute():
    outcomes = [result(0, 60), result(1, 120), result(2, 180), result(3, 240)]
    f = freshness(outcomes, points(128_000, 188_000, 248_000), steady_until_ms=T0 + 150_000)
    assert f["results"] == 3 and f["without_point"] == 0
    assert f["taken_to_influx_s"] == {"p50": 68.0, "p99": 68.0, "max": 68.0}
    assert f["next_result_taken_after_s"]["max"] == 60.0
    assert f["next_result_taken_to_influx_s"]["max"] == 8.0
    assert f["over_90_s"] == {}
    # the last run (minute 3) started after the steady part: counted apart, without a point
    assert f["at_stop"] == {"results": 0, "without_point": 1, "taken_to_influx_s": {"p50": None, "max": None}}


def test_a_late_point_behind_a_retried_next_result_says_so():
    # minute 1's result was answered 429 and taken at pScheduler's retry a minute later
    outcomes = [result(0, 60), result(1, 181, attempts=2), result(2, 180), result(3, 240)]
    f = freshness(outcomes, points(188_000, 188_000, 248_000), steady_until_ms=T0 + 150_000)
    assert f["over_90_s"] == {"results": 1, "next_result_taken_late": 1, "next_result_retried": 1}
    assert f["taken_to_influx_s"]["max"] == 128.0
    # taken at 60 s, the run's first result: its first minute
    assert f["over_90_s_by_minute"] == {0: 1}


def test_a_late_point_behind_a_late_post_or_a_slow_path_says_so():
    late_post = [result(0, 60), result(1, 170, posted_s=169), result(2, 180), result(3, 240)]
    f = freshness(late_post, points(178_000, 188_000, 248_000), steady_until_ms=T0 + 150_000)
    assert f["over_90_s"] == {"results": 1, "next_result_taken_late": 1, "next_result_posted_late": 1}
    slow = [result(0, 60), result(1, 120), result(2, 180), result(3, 240)]
    f = freshness(slow, points(165_000, 188_000, 248_000), steady_until_ms=T0 + 150_000)
    assert f["over_90_s"] == {"results": 1, "slow_after_next_result": 1}
    assert f["next_result_taken_to_influx_s"]["max"] == 45.0


def test_links_are_followed_apart_and_a_missing_point_is_counted():
    outcomes = [result(0, 60), result(1, 120), result(0, 61, dst="c"), result(1, 121, dst="c")]
    first = points(128_000) | points(dst="c")
    f = freshness(outcomes, first, steady_until_ms=T0 + 30_000)
    assert f["results"] == 1 and f["without_point"] == 1
    assert f["at_stop"]["results"] == 0 and f["at_stop"]["without_point"] == 2
