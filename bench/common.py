"""Shared helpers of the benchmarks (scripts/bench.sh): the job lifecycle, Flink metrics, the generator, Kafka."""

import json
import os
import pathlib
import re
import subprocess
import sys
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "lib"))
sys.path.insert(0, str(ROOT / "ingest"))
# re-exported for the bench modules, which import them through this one (common.influxdb, ...)
import alertmanager  # noqa: E402, F401  (tests/lib: Alertmanager's API)
import flink_job  # noqa: E402  (the job lifecycle through bin/longhaul job)
import influxdb  # noqa: E402  (tests/lib: the one InfluxDB client, re-exported for the bench modules)
import kafka  # noqa: E402  (the Kafka connection)
from confluent_kafka.admin import NewTopic  # noqa: E402
from longhaul_contract import CONTRACT  # noqa: E402
from percentile import pct  # noqa: E402, F401  (re-exported: common.pct)

STATS_TOPIC = CONTRACT.topic("stats")  # the production result topics, by their contract role
EVENTS_TOPIC = CONTRACT.topic("events")
KAFKA = kafka.BOOTSTRAP
GEN = str(ROOT / "bin" / "longhaul-bench-gen")


def tag(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def generate(args, capture_stdout=False):
    """Runs the generator to completion; returns (records sent, stdout)."""
    p = subprocess.run([GEN, "--kafka", KAFKA, *args], capture_output=True, text=True, check=True)
    m = re.search(r"bench-gen: (\d+) records", p.stderr)
    return int(m.group(1)), p.stdout


RAW_PREFIX = os.path.commonprefix(CONTRACT.raw_topics())  # the flink user may read only under it


def raw_topics(name):
    """The run's own raw topics (throughput, path): each benchmark reads fresh ones, named under
    the raw prefix the job's Kafka user may read."""
    return f"{RAW_PREFIX}{name}.throughput", f"{RAW_PREFIX}{name}.path"


# The inputs a run gives its data (raw_topics); every other input of the job gets an empty topic of
# the run's (quiet_topics): each raw role, and the one history role the job reads (JobArgs:
# --topic-history-throughput; an argument the job does not know stops it).
RUN_ROLES = ("raw.throughput", "raw.path")
JOB_HISTORY_ROLES = ("history.throughput",)


def quiet_topics(name):
    """The run's own empty topics for each input of the job it gives no data ({job argument:
    topic}), under the raw prefix the job's user may read. The job reads every input from its
    earliest offset: on the stack's shared topics it read what earlier fleets and runs had left
    there (on 2026-12-07 the last session's fleet's latencybg results, counted in the run's rate,
    its state 52 MB against 23, 10-11k samples/s against 34k on a stack wiped of them)."""
    inputs = [
        r for r in CONTRACT.topics if (r.startswith("raw.") or r in JOB_HISTORY_ROLES) and r not in RUN_ROLES
    ]
    return {"--topic-" + r.removeprefix("raw.").replace(".", "-"): f"{RAW_PREFIX}{name}.{r}" for r in inputs}


def create_quiet_topics(name):
    """Creates the run's quiet topics (one partition each); returns the job's arguments naming them."""
    topics = quiet_topics(name)
    admin = kafka.admin()  # held until the futures are done: its handle ends with it
    futures = admin.create_topics([NewTopic(t, num_partitions=1) for t in topics.values()])
    for fut in futures.values():
        fut.result()
    return [w for arg, topic in topics.items() for w in (arg, topic)]


def empty_raw_topics(name, partitions=4, sites=0, src="bench-src"):
    """Creates the run's raw topics, empty, for a live generator (with sites > 0, also the own
    topics of that many agents of src, one partition each); returns the two raw topics."""
    tp, path = raw_topics(name)
    generate(
        [
            "-sites",
            str(sites),
            "-src",
            src,
            "-mode",
            "load",
            "-links",
            "1",
            "-steps",
            "0",
            "-topic-throughput",
            tp,
            "-topic-path",
            path,
            "-create-partitions",
            str(partitions),
        ]
    )
    return tp, path


def live_gen(rate, links, duration_s, src, topics, *flags):
    """The generator's command line in live mode: links links, rate records a second for duration_s
    seconds, from src (and flags), onto the run's raw topics (throughput, path)."""
    tp, path = topics
    return [
        GEN,
        "--kafka",
        KAFKA,
        "-mode",
        "live",
        "-rate",
        str(rate),
        "-links",
        str(links),
        "-duration",
        f"{duration_s}s",
        "-src",
        src,
        *flags,
        "-topic-throughput",
        tp,
        "-topic-path",
        path,
    ]


def own_topics_of(topics):
    """The agents' own topics of the given raw topics that exist (<topic>.agent-...)."""
    infix = CONTRACT.own["separator"] + CONTRACT.own["principal_prefix"]
    names = kafka.admin().list_topics(timeout=60).topics
    return sorted(n for n in names for t in topics if n.startswith(t + infix))


def submit_on(name, topics, args):
    """Submits the job reading the given raw topics (throughput, path) from their start."""
    tp, path = topics
    return submit(
        name,
        [
            "--starting-offsets",
            "earliest",
            "--topic-throughput",
            tp,
            "--topic-path",
            path,
            *create_quiet_topics(name),
            *args,
        ],
    )


def consume(topic, group, isolation, stop, handle):
    """Calls handle(value as JSON, arrival in ms) for every message of topic from now on, until stop is set."""
    c = kafka.consumer(
        {
            "group.id": group,
            "auto.offset.reset": "latest",
            "isolation.level": isolation,
            "enable.auto.commit": False,
        }
    )
    c.subscribe([topic])
    for m in kafka.records(c, stop.is_set, poll_s=0.2):
        handle(json.loads(m.value()), time.time() * 1000)
    c.close()


# The generator's links all have one src unless --sites spreads them (dst-0 .. dst-N-1), which a real
# host never has: the job's cap on links per src (1,000 by default) would dead-letter most of them.
LINKS_PER_SRC = ["--max-links-per-src", "1000000"]


def submit(name, args):
    """Starts job `name` reading KAFKA; returns (name, job id) for cancel() and the metrics reads."""
    # --kafka: LONGHAUL_KAFKA, added by longhaul job submit
    return name, flink_job.submit(name, [*LINKS_PER_SRC, *args])


def cancel(name, _jid):
    """Ends the run's job and deletes what the run left: its topics (a broker keeping every earlier
    run's partitions spends its CPU on them: 5,240 topics after a day of runs here took the broker
    of the 2-core machine from 47 % to 91 % of a core) and its series in InfluxDB (a run over 10k
    links of its own src adds tens of thousands: a day of runs filled the database's million, and
    Telegraf's writes of everything else were refused)."""
    flink_job.cancel(name)
    drop_run(name)


def drop_run(name):
    """Deletes the run's topics and series (see cancel): for a run that reads its topics again
    after its job is gone."""
    drop_topics(name)
    drop_series(name)


def drop_series(name):
    """Deletes the InfluxDB series of every src the run named (name, name-NNN), as the admin."""
    influxdb.series(
        f'DROP SERIES WHERE "src" =~ /^{re.escape(name)}/', auth=influxdb.stack_user("admin"), timeout=600
    )


def drop_topics(name):
    """Deletes the run's raw topics, their agents' own topics (--sites) and its quiet topics."""
    raw = list(raw_topics(name))
    admin = kafka.admin()
    mine = raw + own_topics_of(raw) + list(quiet_topics(name).values())
    names = [n for n in mine if n in admin.list_topics(timeout=60).topics]
    for fut in admin.delete_topics(names, operation_timeout=60).values():
        fut.result()


def source_records(jid):
    """Records read by the job's sources so far (task-level numRecordsIn of the source vertices)."""
    total = 0
    for v in flink_job.rest(f"/jobs/{jid}")["vertices"]:
        if v["name"].startswith("Source:"):
            m = flink_job.rest(f"/jobs/{jid}/vertices/{v['id']}/subtasks/metrics", get="numRecordsIn")
            total += int(m[0]["sum"]) if m else 0
    return total


def checkpoints(jid):
    c = flink_job.rest(f"/jobs/{jid}/checkpoints")
    s = c.get("summary", {})
    last = (c.get("latest") or {}).get("completed") or {}
    return {
        "completed": c["counts"]["completed"],
        "failed": c["counts"]["failed"],
        "last_state_bytes": last.get("state_size"),
        "last_duration_ms": last.get("end_to_end_duration"),
        "duration_ms_p50": s.get("end_to_end_duration", {}).get("p50"),
        "duration_ms_max": s.get("end_to_end_duration", {}).get("max"),
        "state_bytes_max": s.get("state_size", {}).get("max"),
        "state_bytes_by_operator": state_by_operator(jid, last.get("id")),
    }


def state_by_operator(jid, checkpoint_id):
    """The completed checkpoint's state bytes per job vertex (operator chain), largest first."""
    if checkpoint_id is None:
        return {}
    names = {v["id"]: v["name"] for v in flink_job.rest(f"/jobs/{jid}")["vertices"]}
    tasks = flink_job.rest(f"/jobs/{jid}/checkpoints/details/{checkpoint_id}").get("tasks", {})
    sizes = {names.get(vid, vid)[:60]: t.get("state_size", 0) for vid, t in tasks.items()}
    return dict(sorted(((k, v) for k, v in sizes.items() if v), key=lambda kv: -kv[1]))


def emit(result):
    """One JSON line per figure on stdout (collected by scripts/bench.sh)."""
    print("RESULT " + json.dumps(result), flush=True)
