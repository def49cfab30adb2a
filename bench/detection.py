"""Detection delay: live samples for --links links with a run summary every --probe-interval s;
after --collapse-after s the summaries of --collapse-links links drop by --drop. For each, the delay
from the first collapsed run (its ts, the onset) to the throughput_collapse event being readable
(read_committed) on longhaul.events, in seconds and in probe intervals.

python bench/detection.py --links 200 --probe-interval 10 --collapse-links 20"""

import argparse
import json
import subprocess
import threading
import time

import common


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--links", type=int, default=200)
    ap.add_argument("--probe-interval", type=int, default=10, help="seconds between two summaries of a link")
    ap.add_argument("--collapse-links", type=int, default=20)
    ap.add_argument(
        "--collapse-after", type=int, default=140, help="s; the detector needs min-history (10) runs first"
    )
    ap.add_argument("--drop", type=float, default=0.7)
    ap.add_argument("--duration", type=int, default=200)
    ap.add_argument("--job-args", default="--checkpoint-interval 1s --out-of-orderness 1s --idleness 30s")
    a = ap.parse_args()
    collapse = common.CONTRACT.kinds["throughput_collapse"].name  # fails at once if the contract renames it
    name = common.tag("bench-det")
    tp, path = common.empty_raw_topics(name)
    jar, jid = common.submit_on(name, (tp, path), a.job_args.split())
    events, stop = {}, threading.Event()

    def handle(v, now):
        if v.get("src") == name and v.get("kind") == collapse and v["dst"] not in events:
            events[v["dst"]] = (now, v["ts"])

    failed = []

    def follow():
        try:
            common.consume(common.EVENTS_TOPIC, name, "read_committed", stop, handle)
        except Exception as e:  # any: without its reader the figure would be "none detected"
            failed.append(e)

    t = threading.Thread(target=follow, daemon=True)
    t.start()
    time.sleep(3)
    try:
        # one step = links / rate s = 1 s, a summary every probe-interval steps
        gen = subprocess.run(
            common.live_gen(
                a.links,
                a.links,
                a.duration,
                name,
                (tp, path),
                "-summary-every",
                str(a.probe_interval),
                "-path-every",
                "0",
                "-collapse-links",
                str(a.collapse_links),
                "-collapse-after",
                f"{a.collapse_after}s",
                "-collapse-drop",
                str(a.drop),
            ),
            capture_output=True,
            text=True,
            check=True,
        )
        time.sleep(10)
        stop.set()
        t.join(5)
        if failed:
            raise SystemExit(f"the events reader failed: {failed[0]!r}")
        onsets = {o["dst"]: o["onset_ts"] for o in map(json.loads, gen.stdout.split())}
        secs = [(events[d][0] - ts) / 1000 for d, ts in onsets.items() if d in events]
        intervals = [(events[d][1] - ts) / 1000 / a.probe_interval for d, ts in onsets.items() if d in events]
        common.emit(
            {
                "figure": "detection_delay",
                "collapsed_links": len(onsets),
                "detected": len(secs),
                "probe_interval_s": a.probe_interval,
                "drop": a.drop,
                "onset_to_event_on_kafka_s_p50": common.pct(secs, 50),
                "s_max": max(secs, default=None),
                "evidence_after_onset_probe_intervals_p50": common.pct(intervals, 50),
                "probe_intervals_max": max(intervals, default=None),
                "after_confirming_run_s_p50": common.pct(
                    [s - i * a.probe_interval for s, i in zip(secs, intervals, strict=True)], 50
                ),
                "false_alarms": len([d for d in events if d not in onsets]),
            }
        )
    finally:
        common.cancel(jar, jid)


if __name__ == "__main__":
    main()
