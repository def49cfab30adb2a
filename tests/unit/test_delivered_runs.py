"""The stories' count of runs delivered against the minutes stored (tests/lib/delivered_runs.py):
a minute is expected once its link's clock has closed it, not when another link's has."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "lib"))
from delivered_runs import CLOSED_AFTER_S, windows_lost_or_doubled

T0 = 1_796_228_400  # a minute's start, epoch s
UDP = ("s1", "dst-a", "udp")
ICMP = ("s1", "dst-a", "icmp")


def summary(link, ts_s, appended_s):
    """A throughput summary (udp) or a ping (icmp) of `link` run at ts_s, in Kafka at appended_s."""
    src, dst, proto = link
    if proto == "icmp":
        m = {"schema": "rtt_sample", "src": src, "dst": dst, "ts": ts_s * 1000}
    else:
        m = {"schema": "throughput_sample", "record": "summary", "protocol": proto, "src": src, "dst": dst}
        m["ts"] = ts_s * 1000
    return (appended_s, m)


def end(link_offset_s, minute):
    """The end (ms) of the link's `minute`-th window after T0, its windows ending at second
    link_offset_s of the minute."""
    return (T0 + 60 * minute + link_offset_s) * 1000


def test_the_last_minute_of_a_link_whose_next_run_never_came_is_open_not_lost():
    # CI, 2026-12-02: udp's last minute (3 runs, end :41) had no next run before the job
    # stopped; a ping link's minute ending :50 was stored: udp's was not lost
    raw = [summary(UDP, T0 + 41 + s, T0 + 41 + s + 17) for s in (0, 20, 40)]
    raw += [summary(ICMP, T0 + 50 + s, T0 + 51 + s) for s in (0, 15, 30, 45, 60)]
    stored = {(*UDP, end(41, 0)): 2, (*ICMP, end(50, 1)): 4}
    raw += [summary(UDP, T0 + s, T0 + s + 5) for s in (0, 25)]
    checked, missing, doubled = windows_lost_or_doubled(stored, raw, until=T0 + 130)
    assert missing == {} and doubled == {}
    assert checked == 2 + 4


def test_a_minute_its_links_next_run_passed_in_time_is_expected_whole():
    raw = [summary(UDP, T0 + 41 + s, T0 + 41 + s + 17) for s in (0, 20, 40)]
    raw += [summary(UDP, T0 + 10, T0 + 11), summary(UDP, T0 + 101, T0 + 106)]  # the latter: past the end
    stored = {(*UDP, end(41, 0)): 1}
    _, missing, _ = windows_lost_or_doubled(stored, raw, until=T0 + 106 + CLOSED_AFTER_S)
    assert missing == {(*UDP, end(41, 1)): "3 of 3 runs; reached Kafka up to 17.0 s after their ts"}


def test_a_next_run_too_close_to_the_stop_leaves_the_minute_open():
    raw = [summary(UDP, T0 + 41 + s, T0 + 41 + s + 1) for s in (0, 20, 40)]
    raw += [summary(UDP, T0 + 10, T0 + 11), summary(UDP, T0 + 101, T0 + 106)]
    stored = {(*UDP, end(41, 0)): 1}
    checked, missing, _ = windows_lost_or_doubled(stored, raw, until=T0 + 106 + CLOSED_AFTER_S - 1)
    assert missing == {} and checked == 1  # the minute before, which the runs passed


def test_a_minute_before_a_stored_one_is_expected_whatever_the_stop():
    raw = [summary(UDP, T0 + 41 + s, T0 + 42 + s) for s in (0, 20, 40)]
    raw += [summary(UDP, T0 + 10, T0 + 11), summary(UDP, T0 + 101, T0 + 102)]
    stored = {(*UDP, end(41, 0)): 1, (*UDP, end(41, 1)): 2, (*UDP, end(41, 2)): 1}
    _, missing, doubled = windows_lost_or_doubled(stored, raw, until=T0)
    assert missing == {(*UDP, end(41, 1)): "1 of 3 runs; reached Kafka up to 1.0 s after their ts"}
    assert doubled == {}


def test_more_runs_stored_than_delivered_is_reported_but_not_in_the_newest_minute():
    raw = [summary(UDP, T0 + 41, T0 + 42), summary(ICMP, T0 + 50, T0 + 51)]
    stored = {(*UDP, end(41, 1)): 2, (*ICMP, end(50, 1)): 3}
    _, _, doubled = windows_lost_or_doubled(stored, raw, until=T0 + 200)
    assert doubled == {(*UDP, end(41, 1)): (2, 1)}


def test_a_replayed_run_counts_once_and_a_run_never_started_not_at_all():
    run = summary(UDP, T0 + 41, T0 + 42)
    failed = summary(UDP, T0 + 61, T0 + 62)
    failed[1]["error"] = {"class": "not_started"}
    raw = [run, (T0 + 90, dict(run[1])), failed, summary(UDP, T0 + 101, T0 + 102)]
    stored = {(*UDP, end(41, 1)): 1}
    checked, missing, doubled = windows_lost_or_doubled(stored, raw, until=T0 + 200)
    assert (checked, missing, doubled) == (1, {}, {})
