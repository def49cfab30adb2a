"""Turn real captures into pScheduler archive messages with pScheduler's own logic:
- throughput: pscheduler-tool-iperf3 iperf3_parser.parse_output (rename of iperf3 -J fields),
  plus receiver-throughput-bits from sum_received as newer releases add;
- trace: pscheduler-tool-traceroute `run` parsing of `traceroute -q 1 -N hops -n` output.
Envelope as the http/kafka archivers send it: id, schedule, test, tool, participants, result."""

import datetime
import json
import os
import re
import sys

LOOKUP = {
    "socket": "stream-id",
    "start": "start",
    "end": "end",
    "bytes": "throughput-bytes",
    "bits_per_second": "throughput-bits",
    "omitted": "omitted",
    "jitter_ms": "jitter",
    "packets": "sent",
    "lost_packets": "lost",
    "retransmits": "retransmits",
    "snd_cwnd": "tcp-window-size",
    "rtt": "rtt",
    "mean_rtt": "rtt",
}


def rename(o):
    return {LOOKUP[k]: v for k, v in o.items() if k in LOOKUP}


def iperf3_result(content):
    if content.get("error"):
        return {"succeeded": False, "error": content["error"], "diags": ""}
    ivs = [
        {"streams": [rename(s) for s in i.get("streams", [])], "summary": rename(i.get("sum", {}))}
        for i in content["intervals"]
    ]
    end = content["end"]
    summary = rename(end["sum_sent"] if "sum_sent" in end else end["sum"])
    if "sum_received" in end:
        summary["receiver-throughput-bits"] = end["sum_received"]["bits_per_second"]
    streams = []
    for s in end.get("streams", []):
        if "udp" in s:
            streams.append(rename(s["udp"]))
        elif "sender" in s:
            streams.append(rename(s["sender"]))
    return {
        "succeeded": True,
        "diags": "",
        "intervals": ivs,
        "summary": {"streams": streams, "summary": summary},
    }


ICMP = {
    "H": "host-unreachable",
    "N": "net-unreachable",
    "P": "protocol-unreachable",
    "S": "source-route-failed",
    "F": "fragmentation-needed-and-df-set",
    "X": "communication-administratively-prohibited",
}


def iso(seconds):
    return "PT{}S".format((f"{seconds:.6f}").rstrip("0").rstrip("."))


def trace_result(stdout):
    # port of pscheduler-tool-traceroute/traceroute/run "Dissect the results"
    traced = []
    for line in stdout.split("\n"):
        line = re.sub(r"\s+", " ", line).strip()
        m = re.match(r"^(\d*)\s+(.*)$", line)
        if m is None or m.group(1) == "":
            continue
        el = m.group(2).split()
        hop = {}
        if el[0] == "*":
            traced.append(hop)
            continue
        hop["ip"] = el.pop(0)
        rtt = float(el.pop(0)) / 1000.0  # "0.053" then "ms"
        hop["rtt"] = iso(rtt)
        el.pop(0)
        if el and el[0][0] == "!":
            hop["error"] = ICMP[el.pop(0)[1:]]
        traced.append(hop)
    return {"schema": 1, "succeeded": True, "paths": [traced]}


def envelope(kind, spec, tool, start, duration, participants, result, run_id):
    return {
        "id": run_id,
        "schedule": {"start": start, "duration": duration},
        "test": {"type": kind, "spec": spec},
        "tool": tool,
        "participants": participants,
        "result": result,
        "task": "https://lh-a/pscheduler/tasks/" + run_id.split("-run-")[0],
        "run": "https://lh-a/pscheduler/tasks/{}/runs/{}".format(*tuple(run_id.split("-run-"))),
    }


def when(path):
    return datetime.datetime.fromtimestamp(os.stat(path).st_mtime, datetime.UTC).strftime(
        "%Y-%m-%dT%H:%M:%S+00:00"
    )


def i3start(content):
    return datetime.datetime.fromtimestamp(content["start"]["timestamp"]["timesecs"], datetime.UTC).strftime(
        "%Y-%m-%dT%H:%M:%S+00:00"
    )


out = sys.argv[1]


def write(name, msg):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    json.dump(msg, open(os.path.join(d, "input.json"), "w"), indent=2)
    open(os.path.join(d, "input.json"), "a").write("\n")


c = json.load(open("/tmp/cap/tbf_p2.json"))
write(
    "throughput/iperf3-tcp-2streams-tbf20mbit",
    envelope(
        "throughput",
        {
            "schema": 1,
            "source": "lh-a",
            "dest": "10.95.0.2",
            "duration": "PT4S",
            "parallel": 2,
            "window-size": 262144,
            "congestion": "cubic",
        },
        {"name": "iperf3", "version": "3.12"},
        i3start(c),
        "PT25S",
        ["lh-a", "lh-c"],
        iperf3_result(c),
        "5d3f0b7e-1c1b-4c5e-9a53-6f1c2a9d0e11-run-8a1e2f34-5b6c-4d7e-8f90-a1b2c3d4e5f6",
    ),
)
c = json.load(open("/tmp/cap/udp.json"))
write(
    "throughput/iperf3-udp-50M-loopback",
    envelope(
        "throughput",
        {
            "schema": 1,
            "source": "longhaul-dev",
            "dest": "127.0.0.1",
            "duration": "PT3S",
            "udp": True,
            "bandwidth": 50000000,
        },
        {"name": "iperf3", "version": "3.12"},
        i3start(c),
        "PT24S",
        ["longhaul-dev", "127.0.0.1"],
        iperf3_result(c),
        "0c9a1b2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d-run-1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9",
    ),
)
c = json.load(open("/tmp/cap/refused.json"))
write(
    "throughput/iperf3-connection-refused",
    envelope(
        "throughput",
        {"schema": 1, "source": "longhaul-dev", "dest": "127.0.0.1", "duration": "PT3S"},
        {"name": "iperf3", "version": "3.12"},
        when("/tmp/cap/refused.json"),
        "PT24S",
        ["longhaul-dev", "127.0.0.1"],
        iperf3_result(c),
        "7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d-run-2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b",
    ),
)
write(
    "trace/traceroute-ecmp-3-hops",
    envelope(
        "trace",
        {"schema": 1, "source": "lh-a", "dest": "10.90.0.2"},
        {"name": "traceroute", "version": "2.1.2"},
        when("/tmp/cap/ps_tr_ok.txt"),
        "PT32S",
        ["lh-a"],
        trace_result(open("/tmp/cap/ps_tr_ok.txt").read()),
        "3c2b1a09-8f7e-4d6c-9b5a-493827160504-run-9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a",
    ),
)
write(
    "trace/traceroute-host-unreachable-H",
    envelope(
        "trace",
        {"schema": 1, "source": "lh-a", "dest": "10.95.0.9", "hops": 5},
        {"name": "traceroute", "version": "2.1.2"},
        when("/tmp/cap/ps_tr_H.txt"),
        "PT32S",
        ["lh-a"],
        trace_result(open("/tmp/cap/ps_tr_H.txt").read()),
        "6a5b4c3d-2e1f-4071-8263-544536271809-run-0f1e2d3c-4b5a-4697-8877-665544332211",
    ),
)
print("ok")
