"""How fresh a fleet run's 1m statistics were (bench/fleet.py), and why the late ones were late.

A link's one-minute window closes when the link's next record passes the window's end (each
link's own clock, flink-jobs LinkClock): for a latencybg result, stamped with its run's start,
that is the link's next result. So a result's point is late either because the record that
closes its minute was taken late (a retried post, a late post) or because the path after that
record (the bridge's produce, the job, the commit, Telegraf, InfluxDB, the poll) was slow."""

import collections

from percentile import pct

LATE_S = 90  # a result whose point took longer than this is explained (fleet_verdict's p99 goal)
SLOW_S = 30  # the closing record taken → the point: longer than this is a slow path
GAP_S = 75  # the link's next result taken this long after this one: the closing record was late


def figures(xs):
    return {p: pct(xs, q) for p, q in (("p50", 50), ("p99", 99), ("max", 100))}


def by_link(outcomes):
    """Each link's taken latencybg results in the order of their runs."""
    links = collections.defaultdict(list)
    for o in outcomes:
        if o["test"] == "latencybg" and o["code"] // 100 == 2:
            links[(o["src"], o["dst"])].append(o)
    for v in links.values():
        v.sort(key=lambda o: o["start_ms"])
    return links


def freshness(outcomes, first, steady_until_ms):
    """For each latencybg result taken: the seconds from taken to its 1m point (first[(src, dst,
    window end ms)], wall seconds), and from that window's end. A link's windows are [end − 60 s,
    end) at its own staggered second.

    The results whose next one was never posted, because the fleet stopped (a run started after
    steady_until_ms), wait for their link's silence instead, or for the watermark: they are
    counted apart ("at_stop"), not in the steady figures, since a fleet that goes on running has
    no such results."""
    ends = collections.defaultdict(list)
    for src, dst, end in first:
        ends[(src, dst)].append(end)
    for v in ends.values():
        v.sort()
    taken, after_end, missing = [], [], 0
    stop_taken, stop_missing = [], 0
    gaps, after_closer, late, late_at = [], [], collections.Counter(), collections.Counter()
    links = by_link(outcomes)
    origin = min((o["done_ms"] for v in links.values() for o in v), default=0)
    for link, results in links.items():
        for i, o in enumerate(results):
            at_stop = o["start_ms"] > steady_until_ms
            end = next((e for e in ends.get(link, []) if e - 60000 <= o["start_ms"] < e), None)
            if end is None:
                if at_stop:
                    stop_missing += 1
                else:
                    missing += 1
                continue
            seen = first[(*link, end)] * 1000
            if at_stop:
                stop_taken.append((seen - o["done_ms"]) / 1000)
                continue
            took = (seen - o["done_ms"]) / 1000
            taken.append(took)
            after_end.append((seen - end) / 1000)
            closer = results[i + 1] if i + 1 < len(results) else None
            if closer is not None:
                gaps.append((closer["done_ms"] - o["done_ms"]) / 1000)
                after_closer.append((seen - closer["done_ms"]) / 1000)
            if took > LATE_S:
                late.update(why_late(o, closer, seen))
                late_at[(o["done_ms"] - origin) // 60000] += 1
    return {
        "results": len(taken),
        "without_point": missing,
        "taken_to_influx_s": figures(taken),
        "window_end_to_influx_s": {p: pct(after_end, q) for p, q in (("p50", 50), ("p99", 99))},
        "next_result_taken_after_s": figures(gaps),
        "next_result_taken_to_influx_s": figures(after_closer),
        f"over_{LATE_S}_s": dict(late),
        # by the minute of the run in which each late result was taken: a burst, or all along
        f"over_{LATE_S}_s_by_minute": dict(sorted(late_at.items())),
        "at_stop": {
            "results": len(stop_taken),
            "without_point": stop_missing,
            "taken_to_influx_s": {p: pct(stop_taken, q) for p, q in (("p50", 50), ("max", 100))},
        },
    }


def why_late(o, closer, seen_ms):
    """The reasons one late result's point was late, as counter keys ("results" counts them)."""
    out = ["results"]
    if closer is None:
        return out + ["no_next_result"]
    if closer["done_ms"] - o["done_ms"] > GAP_S * 1000:
        out.append("next_result_taken_late")
        if closer["attempts"] > 1:
            out.append("next_result_retried")
        if closer["posted_ms"] - closer["ready_ms"] > 5000:
            out.append("next_result_posted_late")
    if seen_ms - closer["done_ms"] > SLOW_S * 1000:
        out.append("slow_after_next_result")
    return out
