"""Where the machine's CPU goes per record: snapshots of /proc (the machine's busy time and each
stack process's CPU time), and between two of them the CPU microseconds per record of each role
(TaskManager, Kafka, Telegraf, InfluxDB, ...), of the whole machine, and the cores left idle.

The throughput benchmark takes one snapshot at each end of its timed window (10 % → 90 % of the
records), for the job and for the bare consumer. On a saturated machine a rate is the cores it
gets divided by the CPU each record costs all processes together, so these figures say what a
faster job would have to cut, and what it cannot: the work the broker, Telegraf and InfluxDB do
for each record is paid by the job's rate and not by the bare consumer's."""

import os
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")

# A process's role by a marker in its command line, first match wins (the stack's processes).
ROLES = [
    ("taskmanager", ("TaskManagerRunner",)),
    ("jobmanager", ("ClusterEntrypoint",)),
    ("bare consumer", ("BareConsumerBench",)),
    ("kafka", ("kafka.Kafka",)),
    ("telegraf", ("telegraf",)),
    # InfluxDB and systemd-socket-proxyd, which relays its HTTP port out of its namespace
    ("influxdb", ("influxd", "systemd-socket-proxyd")),
]


def role(cmdline):
    for name, markers in ROLES:
        if any(m in cmdline for m in markers):
            return name
    return None


def _machine():
    """(busy, steal, total) jiffies of all CPUs: busy is every state but idle, iowait and steal."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return user + nice + system + irq + softirq, steal, sum(fields[:8])


# Threads of these roles are also counted by name (a thread's comm: its first 15 characters,
# "Source: source:", "GC Thread#0", "stats: 1m windo"), trailing numbers and marks dropped.
THREADS_OF = ("taskmanager",)


def _cpu(stat):
    """(comm, utime + stime) of a /proc stat line; the comm may itself hold spaces and parentheses."""
    rest = stat[stat.rindex(")") + 2 :].split()
    return stat[stat.index("(") + 1 : stat.rindex(")")], int(rest[11]) + int(rest[12]), int(rest[19])


def _threads(pid):
    """{tid: (name, jiffies)} of a process's threads, names without their trailing numbers."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                comm, ticks, _ = _cpu(f.read())
        except OSError:
            continue
        out[int(tid)] = (comm.rstrip("0123456789#-/() ") or comm, ticks)
    return out


def _processes():
    """{(pid, start time): (role, utime + stime jiffies)} of the stack's processes, and
    {(pid, tid): (thread name, jiffies)} of the threads of THREADS_OF."""
    out, threads = {}, {}
    for pid in os.listdir("/proc"):
        # not the benchmark's own process, which does the producing and polling: its command line
        # may name a role (bench/telegraf_burst.py is not Telegraf)
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                r = role(f.read().replace(b"\0", b" ").decode(errors="replace"))
            if r is None:
                continue
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # gone between listdir and open
        _, ticks, start = _cpu(stat)
        out[(int(pid), start)] = (r, ticks)
        if r in THREADS_OF:
            threads.update({(int(pid), tid): v for tid, v in _threads(pid).items()})
    return out, threads


def snapshot():
    busy, steal, total = _machine()
    procs, threads = _processes()
    return {
        "t": time.time(),
        "busy": busy,
        "steal": steal,
        "total": total,
        "procs": procs,
        "threads": threads,
    }


def per_record(a, b, records):
    """CPU µs per record between snapshots a and b: each role's (processes alive at both), the
    rest of the machine ("other"), the machine's whole, and how many cores were busy on average."""
    if records <= 0 or b["t"] <= a["t"]:
        return None
    us = 1e6 / CLK_TCK / records
    roles = {}
    for key, (r, ticks) in b["procs"].items():
        if key in a["procs"]:
            roles[r] = roles.get(r, 0) + ticks - a["procs"][key][1]
    busy = b["busy"] - a["busy"]
    seconds = b["t"] - a["t"]
    cores = (b["total"] - a["total"]) / CLK_TCK / seconds
    out = {name: round(ticks * us, 2) for name, ticks in sorted(roles.items())}
    out["other"] = round(max(0, busy - sum(roles.values())) * us, 2)
    named = {}
    for key, (name, ticks) in b.get("threads", {}).items():
        if key in a.get("threads", {}):
            named[name] = named.get(name, 0) + ticks - a["threads"][key][1]
    threads = {
        name: round(t * us, 2) for name, t in sorted(named.items(), key=lambda x: -x[1]) if t * us >= 0.05
    }
    return {
        "us_per_record": out,
        "machine_us_per_record": round(busy * us, 2),
        "threads_us_per_record": threads,
        "cores_busy": round(busy / CLK_TCK / seconds, 2),
        "cores": round(cores, 2),
        "steal_cores": round((b["steal"] - a["steal"]) / CLK_TCK / seconds, 2),
        "seconds": round(seconds, 1),
    }


def ceiling(job, bare):
    """The fraction of the bare consumer's rate the job could reach on the same cores if the
    TaskManager cost nothing but what the bare consumer spends itself (read and parse): the other
    processes' work per record stays. None when either budget is missing."""
    if not job or not bare:
        return None
    j, b = job["us_per_record"], bare["us_per_record"]
    floor = job["machine_us_per_record"] - j.get("taskmanager", 0) + b.get("bare consumer", 0)
    # the rates scale with the cores each run kept busy over its CPU per record
    return round((job["cores_busy"] / floor) / (bare["cores_busy"] / bare["machine_us_per_record"]), 2)
