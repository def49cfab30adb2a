"""What InfluxDB's HTTP relay costs (scripts/stack/influxdb.sh: InfluxDB in a network namespace of
its own, its HTTP port on the host through systemd-socket-proxyd). Writes --batches batches of
--points points each (Telegraf's metric_batch_size is 10,000) as the writer, alternately through
the relay (the host's 127.0.0.1, as Telegraf writes) and straight to InfluxDB inside its namespace
(this script run again under `ip netns exec`), and gives each way's points/s and the relay's CPU
per point and per MB. Needs the native stack running as root (a namespace).

python bench/influx_relay.py --batches 20 --points 10000 --rounds 3"""

import argparse
import os
import subprocess
import sys
import time

import common
import stack  # tests/lib, on the path through common

CLK_TCK = os.sysconf("SC_CLK_TCK")
MEASUREMENT = "bench_relay"


def lines(tag, batch, points):
    base = int(time.time() * 1000) - 3_600_000
    return "\n".join(
        f"{MEASUREMENT},src={tag},dst=d{i % 100} v={i}i {(base + batch * points + i) * 1_000_000}"
        for i in range(points)
    )


def write(tag, batches, points):
    """Writes the batches; returns (seconds, bytes)."""
    writer = common.influxdb.stack_user("writer")
    bodies = [lines(tag, b, points) for b in range(batches)]
    t0 = time.monotonic()
    for body in bodies:
        r = common.influxdb.write(body, rp="raw", auth=writer)
        assert r.status_code == 204, r.text
    return time.monotonic() - t0, sum(len(b.encode()) for b in bodies)


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return int(rest[11]) + int(rest[12])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--points", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--direct-only", metavar="TAG", help=argparse.SUPPRESS)  # the run inside the namespace
    a = ap.parse_args()
    if a.direct_only:
        s, n = write(a.direct_only, a.batches, a.points)
        print(f"{s} {n}")
        return
    ns = stack.run("influxdb_netns").stdout.strip()
    if not ns:
        sys.exit("no namespace for InfluxDB: run the stack as root")
    relay = stack.pid("influxdb-http")
    if not relay:
        sys.exit("no influxdb-http relay runs: make up as root")
    tag = common.tag("bench-relay")
    relayed, direct, relay_cpu, relay_bytes = [], [], 0, 0
    for _ in range(a.rounds):
        t0 = cpu_ticks(relay)
        s, n = write(tag, a.batches, a.points)
        relay_cpu += cpu_ticks(relay) - t0
        relay_bytes += n
        relayed.append(a.batches * a.points / s)
        out = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                ns,
                sys.executable,
                __file__,
                "--batches",
                str(a.batches),
                "--points",
                str(a.points),
                "--direct-only",
                tag,
            ],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ,
        ).stdout.split()
        direct.append(a.batches * a.points / float(out[0]))
    admin = common.influxdb.stack_user("admin")
    common.influxdb.request(
        "POST",
        "/query",
        auth=admin,
        params={"db": common.influxdb.DB},
        data={"q": f"DROP MEASUREMENT {MEASUREMENT}"},
    )
    points = a.rounds * a.batches * a.points
    common.emit(
        {
            "figure": "influxdb_relay",
            "points": points,
            "points_per_s_relayed": [round(x) for x in relayed],
            "points_per_s_direct": [round(x) for x in direct],
            "relayed_over_direct": round(sum(relayed) / sum(direct), 3),
            "relay_cpu_us_per_point": round(relay_cpu / CLK_TCK * 1e6 / points, 3),
            "relay_cpu_ms_per_mb": round(relay_cpu / CLK_TCK * 1e3 / (relay_bytes / 1e6), 3),
        }
    )


if __name__ == "__main__":
    main()
