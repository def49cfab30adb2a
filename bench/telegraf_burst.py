"""Telegraf's drain of one minute's burst of statistics: with aligned windows (the job's
--stats-stagger 0s) every 1m window of every link ends at the same minute boundary, so
longhaul.stats receives links × 2 statistics at once (staggered, the default, a 60th of that each
second). Produces --links
link_stats messages (the contract's tcp-1m example, one dst per link) for one window end, then
polls InfluxDB until all are readable. Repeats --repeat times with a new window each (existing
series after the first, as in production). Also the CPU each statistic cost every process over
the bursts (cpu_budget; InfluxDB's includes answering the 50 ms polls).

python bench/telegraf_burst.py --links 20000 --repeat 5"""

import argparse
import json
import time

import common
import cpu_budget

EXAMPLE = common.ROOT / "ingest" / "schemas" / "examples" / "link_stats.v1" / "valid" / "tcp-1m.json"


def influx_count(src, wend):
    q = f'SELECT count("samples") FROM "raw"."link_stats" WHERE "src" = \'{src}\' AND time = {wend}ms'
    s = common.influxdb.series(q)
    return s[0]["values"][0][1] if s else 0


def burst(producer, base, src, n, wend, timeout):
    t0 = time.time()
    for i in range(n):
        m = dict(base, src=src, dst=f"dst-{i}", ts=wend, window_start=wend - 60000, window_end=wend)
        producer.produce(common.STATS_TOPIC, json.dumps(m).encode(), key=f"{src}|dst-{i}".encode())
        producer.poll(0)
    producer.flush()
    produced = time.time() - t0
    c = 0
    while time.time() - t0 < timeout:
        c = influx_count(src, wend)
        if c >= n:
            break
        time.sleep(0.05)
    return produced, time.time() - t0, c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--links", type=int, default=20000, help="statistics in the burst")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    base = json.loads(EXAMPLE.read_text())
    src = common.tag("bench-burst")
    producer = common.kafka.producer({"linger.ms": 20})
    minute = int(time.time() // 60) * 60000
    runs = []
    cpu0 = cpu_budget.snapshot()
    for k in range(a.repeat):
        produced, readable, count = burst(producer, base, src, a.links, minute - (k + 30) * 60000, a.timeout)
        runs.append({"produced_s": round(produced, 2), "all_readable_s": round(readable, 2), "count": count})
        time.sleep(2)
    cpu = cpu_budget.per_record(cpu0, cpu_budget.snapshot(), a.links * a.repeat)
    times = [r["all_readable_s"] for r in runs]
    common.emit(
        {
            "figure": "telegraf_burst",
            "statistics": a.links,
            "runs": runs,
            "all_readable_s_min": min(times),
            "all_readable_s_median": common.pct(times, 50),
            "all_readable_s_max": max(times),
            "lost": sum(a.links - r["count"] for r in runs),
            "cpu_per_statistic": cpu,
        }
    )


if __name__ == "__main__":
    main()
