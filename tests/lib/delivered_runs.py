"""The runs the testbed's agents delivered, against the 1-minute statistics the job stored: what
the stories that lose a broker, a TaskManager or an agent check (tests/e2e/test_chaos.py,
tests/cluster/test_broker_loss.py). No service is called here: the stories read the raw topics
and InfluxDB, and pass what they read."""

import collections
import json

# How long after a link's data passed a minute's end the job has surely written that minute to
# Kafka: the link clock's settle (--stats-settle, 5 s), a checkpoint (the testbed profile's 2 s:
# the statistics are committed with it) and the machine's own delays.
CLOSED_AFTER_S = 15
# How long after a restore began (Flink's restore_timestamp) its tasks take their first record, from
# when the link clock's restore quiet counts: an allowance for a loaded 2-core machine.
RESTORE_TO_FIRST_RECORD_S = 15


def closed_after_restore(restored_s, backstop_s):
    """When a job that began restoring at `restored_s` (epoch s) has surely written every minute its
    links passed before: for `backstop_s` (its --out-of-orderness) after its first record LinkClock
    closes nothing by the wall clock, while the records after the checkpoint come again, so the
    minutes passed then are written only after that quiet (CI's chaos story of 94175a9 stopped
    within it and found the last minute of 11 links missing)."""
    return restored_s + RESTORE_TO_FIRST_RECORD_S + backstop_s + CLOSED_AFTER_S


def runs_delivered(raw):
    """Distinct runs the agents delivered per (src, dst, protocol, ts): what the statistics
    count as runs (throughput summaries, pings, traceroutes; a run that never started counts
    nothing), with the longest delay from a run's ts to its time in `raw` (seconds)."""
    seen, runs, delay = set(), collections.Counter(), {}
    for appended, m in raw:
        err = m.get("error") or {}
        if err.get("class") == "not_started":
            continue
        if m.get("schema") == "throughput_sample":
            if m.get("record") != "summary":
                continue
            proto = m.get("protocol")
        elif m.get("schema") == "rtt_sample":
            proto = "icmp"
        elif m.get("schema") == "path_sample":
            proto = "path"
        else:
            continue  # a host snapshot: no statistics
        key = json.dumps(m, sort_keys=True)
        if key in seen:
            continue  # an agent's replay after its kill: Kafka holds it twice, it is one run
        seen.add(key)
        run = (m["src"], m["dst"], proto, m["ts"])
        runs[run] += 1
        delay[run] = max(delay.get(run, 0.0), appended - m["ts"] / 1000)
    return runs, delay


def windows_lost_or_doubled(stored, raw, until):
    """Compares the runs delivered (raw: (time s, message) of the raw topics, the broker's append
    time or a Recorder's receipt) with the 1-minute statistics stored ({(src, dst, protocol, end
    ms): runs}), over the minutes the job had closed when it stopped at `until` (epoch s): returns
    (runs checked, {window: "runs lost, and how late the window's runs reached Kafka"},
    {window: (stored, delivered)} where more were stored). A run that reached Kafka more than the
    job's out-of-orderness after its ts may have come behind the watermark: the delay says so.

    A minute of a link is closed by the link's own clock (flink-jobs functions/stats/LinkClock):
    once a run of that link past the minute's end has reached Kafka (CLOSED_AFTER_S before
    `until`), or once a later minute of the link is stored. The last minute of a link whose next
    run had not come when the job stopped is open, not lost: production closes it with that run."""
    assert stored, "no statistics stored"
    # a window is keyed by its end (a point's time); a link's windows end at its own second of
    # the minute (the job's stagger), the same for all of them: learned from what was stored
    last_stored = collections.defaultdict(int)
    for k in stored:
        last_stored[k[:3]] = max(last_stored[k[:3]], k[3])
    stagger = {link: end % 60000 for link, end in last_stored.items()}
    runs, delay = runs_delivered(raw)
    # each link's newest run that reached Kafka in time for the minutes before it to be written
    passed = collections.defaultdict(int)
    for (src, dst, proto, ts), d in delay.items():
        if ts / 1000 + d <= until - CLOSED_AFTER_S:
            passed[(src, dst, proto)] = max(passed[(src, dst, proto)], ts)
    delivered, late = collections.Counter(), {}
    for (src, dst, proto, ts), n in runs.items():
        off = stagger.get((src, dst, proto), 0)
        window = (src, dst, proto, (ts - off) // 60000 * 60000 + 60000 + off)
        delivered[window] += n
        late[window] = max(late.get(window, 0.0), delay[(src, dst, proto, ts)])
    want = {k: n for k, n in delivered.items() if k[3] <= passed[k[:3]] or k[3] < last_stored[k[:3]]}
    missing = {
        k: f"{n - stored.get(k, 0)} of {n} runs; reached Kafka up to {late[k]:.1f} s after their ts"
        for k, n in want.items()
        if stored.get(k, 0) < n
    }
    # the newest stored minute may hold runs that reached Kafka after the raw topics were read:
    # every earlier one is whole
    newest = max(last_stored.values())
    doubled = {
        k: (n, delivered.get(k, 0)) for k, n in stored.items() if k[3] < newest and n > delivered.get(k, 0)
    }
    return sum(want.values()), missing, doubled
