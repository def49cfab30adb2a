"""Where the TaskManager's CPU time goes: a JFR recording (jcmd JFR.start, settings=profile)
of the running TaskManager, its execution samples classified by stage."""

import collections
import os
import re
import shutil
import subprocess
import tempfile
import time

JAVA_HOME = os.environ.get("LONGHAUL_JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
JCMD = shutil.which("jcmd") or f"{JAVA_HOME}/bin/jcmd"
JFR = shutil.which("jfr") or f"{JAVA_HOME}/bin/jfr"

# A sample belongs to the stage of its leaf-most frame that matches a marker (what the CPU was
# doing), e.g. Jackson called by the schema validator counts as validation only in networknt code.
STAGES = [
    ("validation (json-schema)", ("com.networknt.",)),
    (
        "serialisation (stats/events JSON, Kafka sink)",
        (
            "KafkaSink",
            "KafkaWriter",
            "RecordSerializ",
            "ToMessage",
            "writeValueAsBytes",
            "JsonGenerator",
            "StatsMessage",
        ),
    ),
    (
        "deserialisation (JSON parse of raw records, tree to record)",
        ("shaded.jackson", "com.fasterxml.jackson", "records.Json", "RawMessage"),
    ),
    (
        "windows and keyed state",
        (
            "WindowOperator",
            "HeapKeyedStateBackend",
            "StateTable",
            "InternalTimer",
            "AbstractHeapState",
            "Accumulator",
            "RollupAggregate",
            "KeyedProcess",
        ),
    ),
    (
        "Kafka consumer (fetch, decompress)",
        (
            "org.apache.kafka.clients.consumer",
            "org.apache.kafka.common.record",
            "KafkaSourceReader",
            "xerial.snappy",
            "KafkaPartitionSplitReader",
        ),
    ),
    (
        "Flink record copies between chained operators, shuffle serialisation",
        (
            "io.network",
            "TypeSerializer",
            "PojoSerializer",
            "RecordWriter",
            "SpanningRecordSerializer",
            "StreamElementSerializer",
            "Kryo",
            "CopyingChainingOutput",
            "typeutils",
        ),
    ),
    ("checkpoint snapshots", ("FsCheckpoint", "Snapshot", "checkpoint")),
    ("detectors", ("functions.detect",)),
]


def tm_pid():
    out = subprocess.run([JCMD, "-l"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "TaskManagerRunner" in line:
            return int(line.split()[0])
    raise RuntimeError("no TaskManager JVM in jcmd -l")


def start(seconds):
    f = tempfile.mktemp(suffix=".jfr", prefix="longhaul-bench-")
    subprocess.run(
        [
            JCMD,
            str(tm_pid()),
            "JFR.start",
            "name=longhaul-bench",
            "settings=profile",
            f"duration={seconds}s",
            f"filename={f}",
        ],
        check=True,
        capture_output=True,
    )
    return {"file": f, "until": time.time() + seconds}


def finish(p):
    while time.time() < p["until"] + 3 or not os.path.exists(p["file"]):
        time.sleep(0.5)
        if time.time() > p["until"] + 60:
            return {"error": "no JFR file"}
    time.sleep(2)
    text = subprocess.run(
        [JFR, "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", p["file"]],
        capture_output=True,
        text=True,
    ).stdout
    stages, leaves, total = collections.Counter(), collections.Counter(), 0
    for ev in text.split("jdk.ExecutionSample")[1:]:
        frames = re.findall(r"^\s+([\w$.<>]+)\(", ev, re.M)
        if not frames:
            continue
        total += 1
        snapshot = any(m in f for f in frames for m in ("AsyncSnapshot", "FsCheckpoint", "SnapshotStrategy"))
        st = (
            "checkpoint snapshots"
            if snapshot
            else next((name for f in frames for name, marks in STAGES if any(m in f for m in marks)), "other")
        )
        stages[st] += 1
        leaves[frames[0]] += 1
    return {
        "jfr_file": p["file"],
        "samples": total,
        "stages_percent": {k: round(100 * v / total, 1) for k, v in stages.most_common()} if total else {},
        "top_leaf_frames_percent": {k: round(100 * v / total, 1) for k, v in leaves.most_common(12)}
        if total
        else {},
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(finish({"file": sys.argv[1], "until": 0}), indent=1))
