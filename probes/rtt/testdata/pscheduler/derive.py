#!/usr/bin/env python3
"""Builds the pScheduler rtt archive messages of this folder from real ping captures, the way
pscheduler-tool-ping's `run` (diags: the command line, then "Standard output:" and "Standard
error:") and `merged-results` do, with pscheduler.parse_ping's round trips. Usage:
derive.py CAPTURE_DIR (holding ps-<name>.stdout, .stderr, .ts)."""

import datetime
import json
import os
import re
import sys


def iso(ms):
    # pscheduler.timedelta_as_iso8601 for sub-second durations: PT0.000139S
    return "PT{}S".format(("%.6f" % (ms / 1000.0)).rstrip("0").rstrip("."))


def roundtrips(stdout, count):
    out = []
    for line in stdout.splitlines():
        m = re.match(
            r"^([0-9]+) bytes\s+from (.*):\s+icmp_[rs]eq=([0-9]+)\s+ttl=([0-9]+)\s+time=([0-9.]+) ms$",
            line.strip(),
        )
        if m and int(m.group(3)) <= count:
            out.append(
                {
                    "seq": int(m.group(3)),
                    "length": int(m.group(1)),
                    "ip": m.group(2),
                    "ttl": int(m.group(4)),
                    "rtt": iso(float(m.group(5))),
                }
            )
            continue
        m = re.match(r"^From\s+(\S+)\s+icmp_seq=([0-9]+)\s+(.*)$", line.strip())
        if m:
            err = {
                "Destination Net Unreachable": "net-unreachable",
                "Destination Host Unreachable": "host-unreachable",
            }.get(m.group(3))
            out.append({"seq": int(m.group(2)), "ip": m.group(1), "error": err})
    return out


def stats(stdout):
    m = re.search(r"rtt min/avg/max/mdev = ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ms", stdout)
    return (
        {}
        if not m
        else dict(zip(["min", "mean", "max", "stddev"], [iso(float(x)) for x in m.groups()], strict=True))
    )


def message(case, name, cap, dest, count, full):
    stdout = open(os.path.join(cap, name + ".stdout")).read()
    stderr = open(os.path.join(cap, name + ".stderr")).read()
    ts = int(open(os.path.join(cap, name + ".ts")).read().split()[-1])
    argv = f"ping -n -c {count:d} -i 0.2 -W 1.0 {dest}"
    diags = f"{argv}\n\nStandard output:\n{stdout}\n\nStandard error:\n{stderr}"
    ok = not stderr
    rts = roundtrips(stdout, count)
    # run: sent/received come from parse_ping, which does not return them (0, 0, loss 100.0)
    res = (
        dict(
            stats(stdout),
            roundtrips=rts,
            sent=0,
            received=0,
            lost=0,
            loss=100.0,
            duplicates=0,
            reorders=0,
            schema=1,
            succeeded=True,
        )
        if ok
        else None
    )
    if full:  # one participant's result as `pscheduler result --diags` shows it
        result = {
            "schema": 1,
            "succeeded": ok,
            "diags": diags,
            "error": None if ok else stderr,
            "result": res,
        }
    else:  # merged-results: the fields only
        result = {"schema": 1, "succeeded": ok}
        if ok:
            result.update(
                {
                    k: res[k]
                    for k in [
                        "loss",
                        "max",
                        "mean",
                        "min",
                        "roundtrips",
                        "stddev",
                        "lost",
                        "duplicates",
                        "received",
                        "reorders",
                        "sent",
                    ]
                    if k in res
                }
            )
    start = (
        datetime.datetime.fromtimestamp(ts / 1000, datetime.UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )
    return {
        "id": case,
        "schedule": {"start": start, "duration": "PT5S"},
        "test": {
            "type": "rtt",
            "spec": {
                "schema": 1,
                "source": "lh-a",
                "dest": dest,
                "count": count,
                "interval": "PT0.2S",
                "timeout": "PT1S",
            },
        },
        "tool": {"name": "ping", "version": "1.0"},
        "participants": ["lh-a"],
        "result": result,
    }


cap = sys.argv[1]
for case, name, dest, count, full in [
    ("ping-diags-command-line", "ps-ok", "10.77.2.2", 3, True),
    ("ping-merged-fields-only", "ps-ok", "10.77.2.2", 3, False),
    ("ping-diags-net-unreachable", "ps-unreach", "10.77.3.3", 4, True),
    ("ping-failed-name-resolution", "ps-dns", "nosuch.invalid", 3, True),
]:
    os.makedirs(case, exist_ok=True)
    with open(os.path.join(case, "input.json"), "w") as f:
        json.dump(message(case, name, cap, dest, count, full), f, indent=1)
        f.write("\n")
    with open(os.path.join(case, "args.txt"), "w") as f:
        pass  # src, dst and time come from the message
