"""End-to-end latency at a fixed rate: live samples (ts = wall clock) for many links; InfluxDB is
polled for the 1m link_stats points of this run's src. A point's latency is the moment it first
became readable in InfluxDB minus its window's end (= its timestamp; each link's windows end at its
own second of the minute, --stats-stagger, or all on the minute with --job-args "... --stats-stagger 0s").
Polling resolution: --poll.

python bench/latency.py --rate 10000 --links 10000 --duration 200"""

import argparse
import collections
import subprocess
import threading
import time

import common


def influx_counts(src):
    """The run's 1m points by window end: of src, and of its sites' agents (src-NNN)."""
    q = (
        f'SELECT count("samples") FROM "raw"."link_stats" WHERE "src" =~ /^{src}(-[0-9]+)?$/ '
        f"AND \"window\" = '1m' AND time > now() - 15m GROUP BY time(1s)"
    )
    out = {}
    for s in common.influxdb.series(q):
        for t, c in s["values"]:
            if c:
                # the point's time is its window end, a whole second (links' windows are staggered
                # by whole seconds; aligned, all on the minute): its own bucket
                out[t] = c
    return out


def kafka_arrivals(src, stop, lat, isolation):
    """Moments 1m statistics of src become readable on longhaul.stats with the given isolation level:
    read_uncommitted = written by the job, read_committed = its transaction committed."""

    def handle(v, now):
        if str(v.get("src", "")).startswith(src) and v.get("window") == "1m":
            lat[v["window_end"]].append((now - v["window_end"]) / 1000)

    common.consume(common.STATS_TOPIC, f"{src}-lat-{isolation}", isolation, stop, handle)


def summary(lat, start, duration, warmup, steady_after):
    # Whole windows only: the first window started before the generator, the last is cut by its end.
    whole = sorted(w for w in lat if w - 60000 >= start * 1000 and w <= start * 1000 + duration * 1000)
    # The first windows the job fires run its window code cold (JIT): those ending in the first
    # `warmup` seconds of the first whole window's end are reported apart, not in p50/p99.
    cold = [w for w in whole if w < whole[0] + warmup * 1000] if whole else []
    full = whole[len(cold) :]
    values = [v for w in full for v in lat[w]]
    per_end = [len(lat[w]) for w in full]
    worst = sorted(full, key=lambda w: -max(lat[w]))[:5]
    return {
        "window_ends": len(full),
        "points": len(values),
        "points_per_window_end": [min(per_end, default=0), max(per_end, default=0)],
        # the slowest window ends: seconds after the generator started, their slowest point
        "worst_ends": [[round(w / 1000 - start, 1), round(max(lat[w]), 2)] for w in worst],
        "warmup_ends": len(cold),
        "warmup_max_s": max((v for w in cold for v in lat[w]), default=None),
        "p50_s": common.pct(values, 50),
        "p99_s": common.pct(values, 99),
        "max_s": max(values, default=None),
        **steady(lat, full, steady_after),
    }


def steady(lat, ends, after):
    """The window ends `after` seconds past the first: a job started just before its data catches
    up on them first (2026-12-05: 30-60 s behind at its first minute, caught up 60-110 s later),
    which a short run's p99 would otherwise report as the layout's cost."""
    later = [w for w in ends if w >= ends[0] + after * 1000] if ends else []
    values = [v for w in later for v in lat[w]]
    return {
        "steady_window_ends": len(later),
        "steady_p50_s": common.pct(values, 50),
        "steady_p99_s": common.pct(values, 99),
        "steady_max_s": max(values, default=None),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, default=10000)
    ap.add_argument("--links", type=int, default=10000)
    ap.add_argument("--duration", type=int, default=200)
    ap.add_argument("--poll", type=float, default=0.25)
    ap.add_argument(
        "--warmup",
        type=float,
        default=15,
        help="window ends in the first WARMUP s of the first whole window's end are reported apart",
    )
    ap.add_argument(
        "--steady-after",
        type=float,
        default=90,
        help="the steady_* figures: window ends from STEADY_AFTER s after the first whole window's end",
    )
    # The default checkpoint interval (30 s since 2026-12-07, 5 s before): Telegraf reads uncommitted
    # records, so InfluxDB does not wait for the transaction; only the read_committed figure does.
    ap.add_argument("--job-args", default="--out-of-orderness 1s --idleness 30s")
    ap.add_argument(
        "--sites",
        type=int,
        default=0,
        help="spread the links over this many agents (src <src>-NNN), each writing its own topics",
    )
    a = ap.parse_args()
    name = common.tag("bench-lat")
    src = name
    tp, path = common.empty_raw_topics(name, sites=a.sites, src=src)
    jar, jid = common.submit_on(name, (tp, path), a.job_args.split())
    try:
        stop, klat, ulat = threading.Event(), collections.defaultdict(list), collections.defaultdict(list)
        kts = [
            threading.Thread(target=kafka_arrivals, args=(src, stop, lat, iso), daemon=True)
            for lat, iso in ((klat, "read_committed"), (ulat, "read_uncommitted"))
        ]
        for kt in kts:
            kt.start()
        time.sleep(3)
        gen = subprocess.Popen(
            common.live_gen(a.rate, a.links, a.duration, src, (tp, path), "-sites", str(a.sites)),
            stderr=subprocess.PIPE,
            text=True,
        )
        start = time.time()
        seen, lat = collections.Counter(), collections.defaultdict(list)
        while gen.poll() is None or time.time() < start + a.duration + 5:
            now_ms = time.time() * 1000
            for wend, c in influx_counts(src).items():
                if c > seen[wend]:
                    lat[wend] += [(now_ms - wend) / 1000] * (c - seen[wend])
                    seen[wend] = c
            time.sleep(a.poll)
        err = gen.stderr.read()
        stop.set()
        for kt in kts:
            kt.join(5)
        common.emit(
            {
                "figure": "e2e_latency_window_end",
                "rate_per_s": a.rate,
                "links": a.links,
                "sites": a.sites,
                "job_args": a.job_args,
                "influxdb": summary(lat, start, a.duration, a.warmup, a.steady_after),
                "kafka_stats_read_committed": summary(klat, start, a.duration, a.warmup, a.steady_after),
                "kafka_stats_written": summary(ulat, start, a.duration, a.warmup, a.steady_after),
                "generator": err.strip().splitlines()[-1] if err.strip() else "",
                **common.checkpoints(jid),
            }
        )
    finally:
        common.cancel(jar, jid)


if __name__ == "__main__":
    main()
