"""The fleet on the whole stack: --hosts pScheduler hosts in meshes of --mesh (WLCG's cadence, or
--pattern's), each registered with its own identity by `longhaul admin add-pscheduler-host`,
posting their results through one pScheduler bridge, or --bridges of them behind one name (their host
lists set), as their HTTP archiver
does (bin/longhaul-fleet, bench/fleet/), to the production job. Measures:
  - what became of every result (taken, retried, given up: nothing may be lost);
  - freshness: from a latencybg result being taken by the bridge to its link's 1m statistics
    being readable in InfluxDB (polled every --poll s for the windows that ended in the last
    --poll-window s; each query's duration is how late a point may be dated), p50/p99/max, and after the window's end; and to the statistic being committed
    on the stats topic (the job's part alone);
  - CPU of every process of the stack and of the bridge, in cores, and µs per result;
  - the job's sources' pending records (Kafka lag) over the run, late records dropped;
  - the InfluxDB series the fleet's links made;
  - with a carrier or site --fault: the incidents the job opened for the fleet's links, each with
    its place, its links and its time after the fault began (event time: the simulated clock);
  - with --kill-broker, on the scaled-out stack (scripts/test-cluster.sh fleet): a broker lost
    mid-run, back and in sync when (fleet_broker_loss.py).

python bench/fleet.py --hosts 250 --mesh 30 --duration 600 [--speed 1] [--fault SPEC ...]"""

import argparse
import collections
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
import time

import common
import cpu_budget
from common import CONTRACT
from confluent_kafka import TopicPartition
from fleet_broker_loss import BrokerLoss
from fleet_freshness import freshness
from fleet_parallel import parallel_for
from fleet_verdict import verdict
from operator_cli import longhaul
from psbridge import Bridge

FLEET = str(common.ROOT / "bin" / "longhaul-fleet")
SECRETS = pathlib.Path(os.environ["LONGHAUL_SECRETS_DIR"])


def register(names, archives, bridges):
    """Each host as add-pscheduler-host makes it, its own token installed in every bridge's folder
    (a fleet's bridges behind one name take any of its hosts); host i posts to bridge i mod N, as a
    host keeps the address it resolved the bridges' name to while its connections live."""
    t0 = time.time()
    for i, n in enumerate(names):
        out = archives / f"pscheduler-{n}"
        url = bridges[i % len(bridges)].url
        longhaul("admin", "add-pscheduler-host", n, "--out", str(out), "--bridge-url", url)
        for bridge in bridges:
            shutil.copy(out / f"{n}.token", bridge.host_tokens / f"{n}.token")
    return time.time() - t0


def unregister(names):
    for n in names:
        longhaul("admin", "remove-pscheduler-host", n, check=False)


class StatsPoller(threading.Thread):
    """First moment each one-way (owd) 1m statistics point of the sampled sources' links is
    readable in InfluxDB: the latencybg results' own points, not their links' traceroute minutes,
    which end at other seconds (each key's stagger) and close later (a traceroute every 10
    minutes)."""

    def __init__(self, sources, every, window_s):
        super().__init__(daemon=True)
        self.sources, self.every, self.window_s = sources, every, window_s
        self.first = {}  # (src, dst, window end ms) → wall time first seen
        self.errors = 0
        self.durations = []  # seconds each query took: how late a point can be dated
        self.stop = threading.Event()

    def run(self):
        q = (
            f'SELECT "samples" FROM "raw"."link_stats" WHERE "src" =~ /^({"|".join(self.sources)})$/ '
            f'AND "window" = \'1m\' AND "protocol" = \'owd\' AND time > now() - {self.window_s}s GROUP BY "src", "dst"'
        )
        while not self.stop.wait(self.every):
            asked = time.time()
            try:
                rows = common.influxdb.series(q, timeout=30)
            except Exception:  # a slow query is counted, the poll goes on
                self.errors += 1
                continue
            now = time.time()
            self.durations.append(now - asked)
            for s in rows:
                src, dst = s["tags"]["src"], s["tags"]["dst"]
                for row in s["values"]:
                    key = (src, dst, int(row[0]))  # epoch ms: the window's end
                    self.first.setdefault(key, now)


class StatsTap(threading.Thread):
    """First moment each 1m statistic of the run's links is committed on the stats topic (read
    from its end offsets at the start, read_committed): the job's part of the freshness, without
    Telegraf, InfluxDB or a poller's query."""

    def __init__(self, prefix):
        super().__init__(daemon=True)
        self.prefix = prefix + "-"
        self.first = {}  # (src, dst, window end ms) → wall time committed
        self.stop = threading.Event()
        stats = CONTRACT.topic("stats")
        self.start_at = common.kafka.end_offsets(stats)
        self.topic = stats

    def run(self):
        c = common.kafka.consumer(
            {
                "group.id": "bench-" + self.prefix,
                "isolation.level": "read_committed",
                "enable.auto.commit": False,
            }
        )
        c.assign([TopicPartition(self.topic, p, o) for p, o in self.start_at.items()])
        try:
            for m in common.kafka.records(c, self.stop.is_set):
                if not m.value().startswith(b"{"):
                    continue
                s = json.loads(m.value())
                if s["window"] == "1m" and s["protocol"] == "owd" and s["src"].startswith(self.prefix):
                    self.first.setdefault((s["src"], s["dst"], s["window_end"]), time.time())
        finally:
            c.close()


def influx_query_s():
    """Seconds InfluxDB has spent answering queries since it started (its /debug/vars)."""
    v = common.influxdb.request(
        "GET", "/debug/vars", auth=common.influxdb.stack_user("admin"), timeout=60
    ).json()
    httpd = next(x for k, x in v.items() if k.startswith("httpd"))
    return httpd["values"]["queryReqDurationNs"] / 1e9


def job_id():
    """The production job's (LONGHAUL_JOB_NAME: scripts/stack/defaults.env), which reads the
    contract's raw topics where the bridge writes."""
    name = os.environ.get("LONGHAUL_JOB_NAME", "longhaul-link-monitor")
    for j in common.flink_job.rest("/jobs/overview")["jobs"]:
        if j["state"] == "RUNNING" and j["name"] == name:
            return j["jid"]
    raise SystemExit(f"no job {name} running (make up)")


def pending(jid):
    """The job's sources' pending records (FLIP-33 pendingRecords: its Kafka lag)."""
    total = 0
    for v in common.flink_job.rest(f"/jobs/{jid}")["vertices"]:
        if v["name"].startswith("Source:"):
            m = common.flink_job.rest(
                f"/jobs/{jid}/vertices/{v['id']}/subtasks/metrics", get="pendingRecords"
            )
            total += int(m[0].get("sum", 0)) if m else 0
    return total


def proc_cpu_s(pid):
    """The process's CPU seconds so far, read as cpu_budget reads every stack process's."""
    with open(f"/proc/{pid}/stat") as f:
        return cpu_budget._cpu(f.read())[1] / cpu_budget.CLK_TCK


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=250)
    ap.add_argument("--mesh", type=int, default=30)
    ap.add_argument("--pattern", default="")
    ap.add_argument("--duration", type=int, default=600, help="simulated seconds")
    ap.add_argument("--speed", type=float, default=1)
    ap.add_argument("--fault", action="append", default=[])
    # The poller is the benchmark's instrument, not the stack's load: each poll reads every link's
    # recent owd points (7,050 links × 10 minutes was 0.17 s of InfluxDB's time a second at a 2 s
    # poll, most of InfluxDB's CPU in the run). A point readable later than --poll-window after
    # its window's end is counted as without a point.
    ap.add_argument("--poll", type=float, default=4)
    ap.add_argument("--poll-window", type=int, default=300, help="seconds of windows each poll reads")
    # ... and it grows with the fleet: at 1,000 hosts each poll read 28,800 links' points, several
    # tenths of a core of InfluxDB and of this script on a machine the fleet fills. The freshness
    # in InfluxDB is measured on the links of --poll-sources evenly spread hosts (all of them in a
    # smaller fleet); on Kafka (StatsTap, cheap) on every link.
    ap.add_argument("--poll-sources", type=int, default=100, help="hosts whose links' points are polled")
    ap.add_argument(
        "--max-concurrent", type=int, default=None, help="the bridge's max_concurrent (default the bridge's)"
    )
    ap.add_argument(
        "--bridges", type=int, default=1, help="bridges behind the fleet's one name (each host posts to one)"
    )
    ap.add_argument("--settle", type=int, default=240, help="seconds to keep polling after the last post")
    ap.add_argument(
        "--parallel",
        type=int,
        default=None,
        help="connections a host keeps (the simulator's -parallel; default pScheduler's archiver pool, 25, or "
        "fewer when this process's open-files limit cannot hold hosts x 25: parallel_for)",
    )
    ap.add_argument(
        "--drain", type=int, default=90, help="seconds the simulator waits for retries at the end"
    )
    ap.add_argument("--kill-broker", help="BROKER@SECONDS: kill -9 that broker then (fleet_broker_loss.py)")
    a = ap.parse_args()
    a.parallel = a.parallel or parallel_for(a.hosts)
    loss = BrokerLoss(a.kill_broker) if a.kill_broker else None
    name = common.tag("fleet")
    names = [f"{name}-h{i:04d}" for i in range(a.hosts)]
    jid = job_id()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        # compressed time posts each host's results that much faster than its token's default rate
        # (pscheduler_bridge.host_rate, 10 a second) was sized for
        rate = 10 * a.speed if a.speed > 1 else None
        bridges = []
        for i in range(a.bridges):
            (tmp / f"bridge{i}").mkdir()
            bridges.append(
                Bridge(
                    tmp / f"bridge{i}",
                    hosts={f"http-{n}": [n] for n in names},
                    host_rate=rate,
                    max_concurrent=a.max_concurrent,
                    instance=i,
                )
            )
        archives = tmp / "archives"
        try:
            reg_s = register(names, archives, bridges)
            print(f"registered {a.hosts} pScheduler hosts in {reg_s:.0f} s", flush=True)
            for bridge in bridges:
                bridge.start()
            sampled = names[:: max(1, -(-len(names) // a.poll_sources))]
            poller = StatsPoller(sampled, a.poll, a.poll_window)
            poller.start()
            tap = StatsTap(name)
            tap.start()
            late0, lag = common.flink_job.late_dropped(jid), []
            events0 = common.kafka.end_offsets(CONTRACT.topic("events"))
            cpu0, b0 = cpu_budget.snapshot(), [proc_cpu_s(b.proc.pid) for b in bridges]
            q0 = influx_query_s()
            cmd = [FLEET, "-hosts", str(a.hosts), "-mesh", str(a.mesh), "-prefix", name]
            cmd += [
                "-archives",
                str(archives),
                "-ca",
                str(SECRETS / "ca.crt"),
                "-out",
                str(tmp / "outcomes.jsonl"),
            ]
            cmd += ["-duration", f"{a.duration}s", "-speed", str(a.speed), "-drain", f"{a.drain}s"]
            cmd += ["-parallel", str(a.parallel)]
            cmd += [x for f in a.fault for x in ("-fault", f)] + (
                ["-pattern", a.pattern] if a.pattern else []
            )
            sim = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            if loss:
                loss.start()
            while sim.poll() is None:
                lag.append(pending(jid))
                time.sleep(10)
            summary = json.loads(sim.stdout.read().strip().splitlines()[-1])
            cpu1, b1 = cpu_budget.snapshot(), [proc_cpu_s(b.proc.pid) for b in bridges]
            q1 = influx_query_s()
            time.sleep(a.settle)
            poller.stop.set()
            tap.stop.set()
            outcomes = [json.loads(ln) for ln in (tmp / "outcomes.jsonl").read_text().splitlines()]
            polled = set(sampled)
            # a run started later than two minutes before the simulation's end has no next run
            # posted (latencybg: a run a minute, posted when it ends) to close its minute
            steady_until = summary["start_ms"] + (summary["simulated_s"] - 120) * 1000
            health = [b.health() for b in bridges]
            bridge_s = sum(b1) - sum(b0)
            res = {
                "figure": "fleet",
                "hosts": a.hosts,
                "mesh": a.mesh,
                "speed": a.speed,
                "max_concurrent": a.max_concurrent,
                "parallel": a.parallel,
                "faults": a.fault,
                "simulator": summary,
                "bridges": [
                    {
                        k: h.get(k)
                        for k in (
                            "accepted",
                            "duplicates",
                            "dead_letters",
                            "busy",
                            "busy_queue_full",
                            "shared",
                            "unshared",
                            "learnt",
                        )
                    }
                    | {"cpu_cores": round((e - s0) / (cpu1["t"] - cpu0["t"]), 3)}
                    for h, s0, e in zip(health, b0, b1, strict=True)
                ],
                "bridge_cpu_cores": round(bridge_s / (cpu1["t"] - cpu0["t"]), 3),
                "bridge_cpu_ms_per_result": round(bridge_s * 1000 / max(summary["taken"], 1), 3),
                "cpu": cpu_budget.per_record(cpu0, cpu1, max(summary["taken"], 1)),
                "freshness": freshness(
                    [o for o in outcomes if o["src"] in polled], poller.first, steady_until
                ),
                "freshness_polled_sources": len(sampled),
                "freshness_on_kafka": freshness(outcomes, tap.first, steady_until),
                "influx_poll_errors": poller.errors,
                "influx_poll_s": {p: common.pct(poller.durations, q) for p, q in (("p50", 50), ("p99", 99))},
                # InfluxDB's time answering queries (this poller's, the watchdog's), a second of the run
                "influx_query_s_per_s": round((q1 - q0) / (cpu1["t"] - cpu0["t"]), 3),
                "job_pending_records": {
                    "samples": len(lag),
                    "first": lag[:3],
                    "last": lag[-3:],
                    "max": max(lag, default=0),
                },
                "late_dropped": common.flink_job.late_dropped(jid) - late0,
                "influx_series": series_of(name),
            }
            if loss:
                loss.join(timeout=600)
                res["broker_loss"] = loss.result
            if a.fault:
                res["incidents"] = incidents(fleet_events(name, events0), a.fault, summary["start_ms"])
            res["verdict"] = verdict(res, summary["taken"] / max(summary["simulated_s"], 1) * a.speed)
            common.emit(res)
        finally:
            for bridge in bridges:
                if bridge.proc:
                    bridge.stop()
            unregister(names)
            common.drop_series(name)


INCIDENT_KINDS = ("incident_opened", "incident_updated", "incident_resolved")


def fleet_events(prefix, start):
    """The events the job wrote for the fleet's links since `start` (kafka.end_offsets)."""

    def ours(e):
        links = e.get("links") or [{"src": e.get("src", ""), "dst": e.get("dst", "")}]
        return any(str(link.get(k, "")).startswith(prefix + "-") for link in links for k in ("src", "dst"))

    return common.kafka.read_all(CONTRACT.topic("events"), ours, lambda _: False, 30, 0, start=start)


def fault_offset_s(spec):
    """The fault's start in seconds after the run's (its "@+10m")."""
    when = spec.split("@", 1)[1].split(":", 1)[0].split("/", 1)[0].lstrip("+")
    return {"s": 1, "m": 60, "h": 3600}[when[-1]] * float(when[:-1])


def incidents(events, faults, start_ms):
    """Each incident the job opened for the fleet: place, links, and seconds from the first fault's
    start to its opening (event time); each incident already open elsewhere that the fleet's links
    joined (its first update naming them); and how many alerts of each kind the links raised."""
    begun = start_ms + 1000 * min((fault_offset_s(f) for f in faults), default=0)
    opened = [
        {
            "location": f"{e['location']['type']} {e['location']['name']}",
            "links": len(e.get("links") or []),
            "opened_after_fault_s": round((e["ts"] - begun) / 1000),
        }
        for e in events
        if e["kind"] == "incident_opened"
    ]
    # an incident still open at the same place (an earlier run's fleet stopped without recovering)
    # takes the run's links in: its first update naming them is when the job found the fault
    places = {o["location"] for o in opened}
    joined = {}
    for e in events:
        place = f"{e['location']['type']} {e['location']['name']}" if e.get("location") else ""
        if e["kind"] == "incident_updated" and place not in places and place not in joined:
            joined[place] = {
                "location": place,
                "links": len(e.get("links") or []),
                "updated_after_fault_s": round((e["ts"] - begun) / 1000),
            }
    kinds = collections.Counter(e["kind"] for e in events if e["kind"] not in INCIDENT_KINDS)
    return {"opened": opened, "joined": list(joined.values()), "alerts_by_kind": dict(kinds)}


def series_of(prefix):
    """The fleet's series in every retention policy: listed and counted, because InfluxDB 1.8's
    SHOW SERIES [EXACT] CARDINALITY on the inmem index counts the default policy's shards alone
    (the 1m statistics and hops, not the hourly and daily windows; bench/views.py)."""
    rows = common.influxdb.series(f'SHOW SERIES WHERE "src" =~ /^{prefix}-/', timeout=300)
    return sum(len(s["values"]) for s in rows)


if __name__ == "__main__":
    main()
