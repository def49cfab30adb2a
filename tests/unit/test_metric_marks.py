"""bench/metric_marks: the timed part of a backlog read from a count Flink refreshes every 10 s."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from metric_marks import fresh, timed_span


def polls(rate, total, refresh=10.0, every=0.5, offset=3.0, tail=12.0):
    """Polls every `every` s of a job reading `rate` records/s until `total`, its count as the
    JobManager last fetched it (every `refresh` s, the first fetch at `offset`), each mark with a
    tag of its own (as the CPU snapshot of the benchmark's marks)."""
    marks, t = [], 0.0
    while t < total / rate + tail:
        fetched = offset + refresh * int((t - offset) // refresh) if t >= offset else None
        count = 0 if fetched is None else min(total, int(rate * fetched))
        marks.append((t, count, f"cpu@{t}"))
        t += every
    return marks


def rate_of(span):
    lo, hi = span
    return (hi[1] - lo[1]) / (hi[0] - lo[0])


def test_the_first_poll_of_each_refresh_times_the_read_within_a_poll():
    marks = polls(rate=50_000, total=1_700_000)
    span = timed_span(marks, 1_700_000)
    # refreshes at 3, 13, 23, 33 s: 150k, 650k, 1.15M, 1.65M; the one of 43 s counts all (idle since 34 s)
    assert [m[1] for m in span] == [650_000, 1_650_000]
    assert [m[2] for m in span] == ["cpu@13.0", "cpu@33.0"], "each mark keeps what was taken with it"
    assert abs(rate_of(span) - 50_000) / 50_000 < 0.01


def naive_rate(marks, total):
    """What the benchmark did before: the first poll past 10 % and past 90 % of the records."""
    lo = next(m for m in marks if m[1] >= 0.1 * total)
    hi = next(m for m in marks if m[1] >= 0.9 * total)
    return (hi[1] - lo[1]) / (hi[0] - lo[0])


def test_the_naive_pairing_is_off_by_the_refresh_where_this_one_is_not():
    new, naive = [], []
    for offset in (0.5, 2.0, 3.0, 4.5, 6.0, 7.5, 9.5):
        marks = polls(rate=50_000, total=1_700_000, offset=offset)
        new.append(abs(rate_of(timed_span(marks, 1_700_000)) - 50_000) / 50_000)
        naive.append(abs(naive_rate(marks, 1_700_000) - 50_000) / 50_000)
    assert max(new) < 0.03, new
    assert max(naive) > 0.15, naive


def test_fresh_keeps_the_first_poll_of_each_whole_refresh():
    marks = [(0, 0), (1, 0), (2, 5), (3, 5), (4, 9), (5, 9), (6, 12)]
    assert fresh(marks) == [(0, 0), (2, 5), (4, 9)], "12 is not yet seen twice"


def test_a_poll_that_saw_part_of_a_refresh_is_not_one():
    # the path source's count (100) refreshed before the poll read it, the throughput source's
    # (the rest) after: the next poll sees both
    marks = [(17.1, 176_671), (17.6, 176_671), (27.1, 176_771), (27.6, 412_258), (28.1, 412_258)]
    assert fresh(marks) == [(17.1, 176_671), (27.6, 412_258)]


def test_a_read_within_two_refreshes_has_no_span():
    assert timed_span(polls(rate=500_000, total=1_700_000), 1_700_000) is None
    assert timed_span([], 10) is None
