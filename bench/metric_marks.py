"""The timed part of a backlog read, from a count that Flink's REST API refreshes only now and then.

A job's numRecordsIn, read through the REST API, is the value of the JobManager's last metric fetch
(`metrics.fetcher.update-interval`, 10 s by default), not the TaskManager's counter now. A poll
every half second sees the same number for up to 10 s, then a jump. Paired with the poll's own
time, a count is up to 10 s old: over a 30-second read, a rate off by a fifth or more. Only the
poll that first sees a whole refresh has both in step (within a poll's interval of the fetch). A
poll sums several vertices, one REST call each, and a fetch may land between two of its calls:
that poll sees part of the refresh and the next one the rest, so a new count counts as a refresh
once the poll after it sees the same. The timed part runs from the first refresh past 10 % of the
records to the last one before the read ended (a count of all of them may have waited up to 10 s
for its fetch after the job went idle).
"""


def fresh(marks):
    """The marks (time, count, ...) that first saw each whole refresh: a count new at that mark and
    the same at the next."""
    return [
        m for i, m in enumerate(marks[:-1]) if (i == 0 or m[1] != marks[i - 1][1]) and marks[i + 1][1] == m[1]
    ]


def timed_span(marks, total, start=0.1):
    """The first and the last fresh mark of the read between start × total records and the end, or
    None when fewer than two fresh marks fall in it (a read too short for the refresh interval)."""
    inside = [m for m in fresh(marks) if start * total <= m[1] < total]
    if len(inside) < 2:
        return None
    return inside[0], inside[-1]
