"""Flink throughput: preload raw samples for many links into fresh topics, then time how fast the
job (reading from the earliest offset) consumes them. Optional JFR profile of the TaskManager.
Then, in the same run and on the same topics, the bare baseline: one plain Kafka consumer on the
same connection that only reads and parses each record (flink-jobs BareConsumerBench); the job's
rate is also given as a fraction of it. And the second anchor, the validated reader: the same
consumer doing what the job must do to every record before its statistics (the dedupe of replays
and the contract's check and typed binding, by the job's own classes; `fraction_of_validated`). For both, the CPU each record cost every process of the
machine over the timed window (cpu_budget), and the fraction the job could reach if its
TaskManager spent no more than the bare consumer does (`fraction_ceiling`). With `--sinks stopped`,
Telegraf is stopped while the job and the two readers read (bench/sinks.py): the job's own rate, as
where InfluxDB and Telegraf have machines of their own; started after, it writes all the run left
(`sinks_drained_s`).

python bench/flink_throughput.py --partitions 4 --parallelism 2 --steps 180 [--profile 20] [--sinks stopped]"""

import argparse
import contextlib
import json
import subprocess
import threading
import time

import common
import cpu_budget
import metric_marks
import profile_jfr
import sinks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--parallelism", type=int, default=2)
    ap.add_argument("--links", type=int, default=10000)
    ap.add_argument("--steps", type=int, default=180)
    ap.add_argument("--hops", type=int, default=15)
    ap.add_argument("--job-args", default="", help='extra job arguments, e.g. "--object-reuse true"')
    ap.add_argument("--profile", type=int, default=0, help="seconds of JFR recording during the run")
    ap.add_argument(
        "--sites",
        type=int,
        default=0,
        help="spread the links over this many agents, each writing its own topics (one partition each)",
    )
    ap.add_argument(
        "--sinks",
        choices=("running", "stopped"),
        default="running",
        help="stopped: Telegraf stopped while the job and the readers read, started and drained after",
    )
    a = ap.parse_args()
    name = common.tag("bench-tput")
    tp, path = common.raw_topics(name)
    t0 = time.time()
    total, _ = common.generate(
        [
            "-mode",
            "load",
            "-links",
            str(a.links),
            "-steps",
            str(a.steps),
            "-hops",
            str(a.hops),
            "-topic-throughput",
            tp,
            "-topic-path",
            path,
            "-create-partitions",
            str(a.partitions),
            "-sites",
            str(a.sites),
        ]
    )
    print(f"preloaded {total} records in {time.time() - t0:.1f} s", flush=True)
    try:
        with sinks.stopped() if a.sinks == "stopped" else contextlib.nullcontext({}) as drained:
            res, rate = timed_job(a, name, (tp, path), total)
            # the same topics, once the job is gone: they are deleted only after this read
            topics = (tp, path, *common.own_topics_of((tp, path)))
            base, bare_cpu = bare_consumer(topics, total)
            checked, checked_cpu = bare_consumer(topics, total, validated=True)
    finally:
        common.drop_run(name)
    res["sinks"] = a.sinks
    if a.sinks == "stopped":
        res["sinks_drained_s"] = drained["s"]
    res["bare_consumer_samples_per_s"] = base
    res["fraction_of_bare"] = round(rate / base, 2)
    res["bare_cpu"] = bare_cpu
    res["fraction_ceiling"] = cpu_budget.ceiling(res["cpu"], bare_cpu)
    res["validated_reader_samples_per_s"] = checked
    res["fraction_of_validated"] = round(rate / checked, 2)
    res["validated_cpu"] = checked_cpu
    common.emit(res)


def timed_job(a, name, topics, total):
    """The job's figures over the preloaded topics, and its rate; the job is cancelled after."""
    jar, jid = common.submit_on(name, topics, ["--parallelism", str(a.parallelism), *a.job_args.split()])
    try:
        marks, prof, deadline = [], None, time.time() + 600
        while time.time() < deadline:
            n = common.source_records(jid)
            marks.append((time.time(), n, cpu_budget.snapshot()))
            if a.profile and prof is None and n > 0.05 * total:
                prof = profile_jfr.start(a.profile)
            if n >= total:
                break
            time.sleep(0.5)
        span = metric_marks.timed_span(marks, total)
        if span is None:
            # Flink's REST metrics refresh every 10 s: a backlog read within two refreshes has no rate.
            raise SystemExit(
                f"the job read {total} records within two metric refreshes: too few to time, raise --steps"
            )
        lo, hi = span
        rate = (hi[1] - lo[1]) / (hi[0] - lo[0])
        time.sleep(6)  # at least one checkpoint with the state of the run
        cp = common.checkpoints(jid)
        res = {
            "figure": "flink_throughput",
            "samples_per_s": round(rate),
            "records": total,
            "links": a.links,
            "hops": a.hops,
            "partitions": a.partitions,
            "sites": a.sites,
            "parallelism": a.parallelism,
            "job_args": a.job_args,
            **cp,
            "cpu": cpu_budget.per_record(lo[2], hi[2], hi[1] - lo[1]),
        }
        if prof:
            res["profile"] = profile_jfr.finish(prof)
        return res, rate
    finally:
        common.flink_job.cancel(jar)


def bare_consumer(topics, total, validated=False):
    """Records/s of the bare baseline (or, validated, of the validated reader) over the same
    topics, once the job is gone (nothing else runs), and its CPU budget: a snapshot at each of the
    marks it prints as it passes 10 % and 90 % of the records ("mark N records")."""
    figure = "validated_reader" if validated else "bare_consumer"
    cmd = [
        "bash",
        str(common.ROOT / "scripts/flink-test-main.sh"),
        "org.longhaul.flink.bench.BareConsumerBench",
        ",".join(topics),
        str(total),
        *(["--validated"] if validated else []),
    ]
    marks, line = [], None
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        timer = threading.Timer(900, p.kill)
        timer.start()
        for out in p.stdout:
            if out.startswith("mark "):
                marks.append((int(out.split()[1]), cpu_budget.snapshot()))
            elif out.startswith(f'{{"figure":"{figure}"'):
                line = out
        err = p.stderr.read()
        timer.cancel()
    if line is None:
        raise SystemExit(f"BareConsumerBench ({figure}) failed: {err[-2000:]}")
    budget = (
        cpu_budget.per_record(marks[0][1], marks[1][1], marks[1][0] - marks[0][0])
        if len(marks) == 2
        else None
    )
    return json.loads(line)["samples_per_s"], budget


if __name__ == "__main__":
    main()
