"""A three-hour story of one source and three links, as raw samples, ending a minute ago:

  <tag>-cern → <tag>-fnal    900 Mbit/s, then collapses to 20 Mbit/s 12 minutes ago; its route
                             changes (hops 2-3) 40 minutes ago onto a path of 165 ms instead of
                             140 ms, which its traceroutes time at once and pings and throughput
                             runs from 35 minutes ago
  <tag>-cern → <tag>-triumf  ping loss 10 % and jitter 25 ms for the last 30 minutes
  <tag>-cern → <tag>-kek     iperf3 connection refused for the last 11 minutes
  <tag>-cern ⇄ <tag>-fnal    pScheduler latencybg (powstream) each way through the bridge; fnal → cern
                             loses 5 % of its packets for the last 30 minutes, cern → fnal none

Throughput runs every 5 minutes (five 1-second intervals and a summary), pings every 5 minutes,
traceroutes every 10 minutes. Deterministic: noise comes from random.Random(tag)."""

import copy
import datetime
import json
import pathlib
import random
import uuid

from longhaul_contract import CONTRACT  # ingest/, on the path through conftest

topic = CONTRACT.topic

STEP = 300_000  # ms between runs
RUNS = 36  # 3 hours


# an archive message of a latencybg run, as pScheduler's archivers send it (the bridge's golden case)
POWSTREAM = (
    pathlib.Path(__file__).resolve().parents[2]
    / "probes/latency/testdata/pscheduler/latencybg-powstream-archived/input.json"
)


def links(tag):
    src = f"{tag}-cern"
    return src, f"{tag}-fnal", f"{tag}-triumf", f"{tag}-kek"


def story(tag, end_ms):
    rnd = random.Random(tag)
    src, fnal, triumf, kek = links(tag)
    base = {fnal: (900e6, 140.0), triumf: (450e6, 180.0), kek: (300e6, 250.0)}
    t0 = end_ms - RUNS * STEP
    out = []

    def msg(schema, dst, probe_id, ts, run_id, **fields):
        return {
            "schema": schema,
            "version": 1,
            "src": src,
            "dst": dst,
            "probe_id": probe_id,
            "ts": ts,
            "run_id": run_id,
            **fields,
        }

    def iperf3(dst, ts, run_id, **fields):
        """A TCP iperf3 record of the link's probe tcp-default, onto the raw throughput topic."""
        sample = msg(
            "throughput_sample", dst, "tcp-default", ts, run_id, tool="iperf3", protocol="tcp", **fields
        )
        out.append((topic("raw.throughput"), sample))

    for k in range(RUNS):
        t = t0 + k * STEP
        ago = end_ms - t
        for dst, (bps, rtt) in base.items():
            rtt_now = rtt + (25.0 if dst == fnal and ago <= 35 * 60_000 else 0.0)
            run = f"r-{k}"
            if dst == kek and ago <= 11 * 60_000:
                iperf3(
                    dst,
                    t + 10_000,
                    run,
                    record="summary",
                    port=5201,
                    error={
                        "class": "connection_refused",
                        "message": "unable to connect to server: Connection refused",
                    },
                )
            else:
                level = 20e6 if dst == fnal and ago <= 12 * 60_000 else bps
                rates = [level * rnd.uniform(0.93, 1.07) for _ in range(5)]
                for i, r in enumerate(rates):
                    iperf3(
                        dst,
                        t + (i + 1) * 1000,
                        run,
                        record="interval",
                        direction="forward",
                        streams=1,
                        start_s=float(i),
                        end_s=float(i + 1),
                        bytes=int(r / 8),
                        bits_per_second=r,
                        retransmits=rnd.randint(0, 4),
                        rtt_ms=rtt_now,
                    )
                mean = sum(rates) / len(rates)
                iperf3(
                    dst,
                    t + 6000,
                    run,
                    record="summary",
                    direction="forward",
                    streams=1,
                    duration_s=5.0,
                    start_s=0.0,
                    end_s=5.0,
                    bytes=int(mean * 5 / 8),
                    bits_per_second=mean,
                    retransmits=rnd.randint(0, 20),
                    rtt_ms=rtt_now,
                )
            lossy = dst == triumf and ago <= 30 * 60_000
            received = 90 if lossy else 100
            mdev = 25.0 if lossy else 0.4
            out.append(
                (
                    topic("raw.rtt"),
                    msg(
                        "rtt_sample",
                        dst,
                        "ping",
                        t + 120_000,
                        f"i-{k}",
                        tool="ping",
                        sent=100,
                        received=received,
                        loss_percent=100.0 - received,
                        rtt_min_ms=rtt_now - 0.5,
                        rtt_avg_ms=rtt_now + rnd.uniform(0, 1),
                        rtt_max_ms=rtt_now + 2 + mdev,
                        rtt_mdev_ms=mdev,
                    ),
                )
            )
            if k % 2 == 0:
                moved = dst == fnal and ago <= 35 * 60_000 + STEP
                middle = ["62.40.9.9", "62.40.8.8"] if moved else ["62.40.1.1", "62.40.2.2"]
                path_rtt = rtt + 25.0 if moved else rtt_now  # a traceroute times the path it took
                addrs = ["10.1.0.1", *middle, f"192.0.2.{list(base).index(dst) + 1}"]
                hops = [
                    {
                        "ttl": i + 1,
                        "probes": [
                            {
                                "addr": a,
                                "rtt_ms": round((i + 1) / len(addrs) * path_rtt + rnd.uniform(0, 1), 2),
                            }
                            for _ in range(3)
                        ],
                    }
                    for i, a in enumerate(addrs)
                ]
                out.append(
                    (
                        topic("raw.path"),
                        msg(
                            "path_sample",
                            dst,
                            "path",
                            t + 180_000,
                            f"p-{k}",
                            tool="traceroute",
                            dst_addr=addrs[-1],
                            max_ttl=30,
                            queries=3,
                            reached=True,
                            hops=hops,
                        ),
                    )
                )
    out.sort(key=lambda tm: tm[1]["ts"])
    return out


def powstream_results(tag, end_ms):
    """The latencybg results pScheduler posts for cern ⇄ fnal over the story, one a direction every
    5 minutes: 600 packets each, histogram keys as powstream_utils writes them ('%.2f' of delay over
    the bucket width of 1 ms), the one-way delay about half the RTT."""
    rnd = random.Random(tag + "owamp")
    src, fnal, _, _ = links(tag)
    base = json.loads(POWSTREAM.read_text())
    t0 = end_ms - RUNS * STEP
    out = []
    for k in range(RUNS):
        t = t0 + k * STEP + 240_000
        for a, b, owd in ((src, fnal, 70.0), (fnal, src, 70.6)):
            lost = 30 if a == fnal and end_ms - t <= 30 * 60_000 else 0
            hist = {}
            for _ in range(600 - lost):
                key = f"{round(owd + abs(rnd.gauss(0, 0.05)), 2):.2f}"
                hist[key] = hist.get(key, 0) + 1
            msg = copy.deepcopy(base)
            msg["id"] = str(uuid.UUID(int=rnd.getrandbits(128)))
            msg["schedule"] = {"start": _iso(t), "duration": "PT0S"}
            msg["test"]["spec"].update(source=a, dest=b)
            msg["participants"] = [a, b]
            msg["result"].update(
                {
                    "packets-sent": 600,
                    "packets-received": 600 - lost,
                    "packets-lost": lost,
                    "histogram-latency": hist,
                    "histogram-ttl": {"250": 600 - lost},
                }
            )
            out.append(msg)
    return out


def _iso(ms):
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).isoformat(timespec="milliseconds")
