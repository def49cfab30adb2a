"""Backfill against the running stack: `longhaul import archive` publishes a perfSONAR archive's
old throughput results to the history topic, which only the importer Kafka user may write; a Flink
job of the same graph learns the link's baseline from them, so the first live run after the import
is judged at once (a control link without history only starts learning, although its run carries
the history header an earlier version trusted), and the baseline it judged with is published
ready with the link statistics. History raises nothing, the live sample is not late (its minute's
statistics come), and an import repeated adds nothing."""

import json
import os
import pathlib
import subprocess
import time

import flink_job
import kafka
import pytest
from conftest import LIVE_JOB_ARGS, holds, now_ms, topic
from messages import clean_tcp_summary
from psbridge import SECRETS, archive

ROOT = pathlib.Path(__file__).resolve().parents[2]
DAY = 86_400_000


def import_archive(path, seen):
    env = {
        **os.environ,
        "LONGHAUL_KAFKA_USER": "importer",
        "LONGHAUL_KAFKA_PASSWORD_FILE": str(SECRETS / "kafka-importer.password"),
    }
    r = subprocess.run(
        [str(ROOT / "bin" / "longhaul"), "import", "archive", "--seen", str(seen), "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    return r.returncode, json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


def summary(src, dst, ts, bps, run_id):
    """A live run summary as the bridge publishes a pScheduler throughput result."""
    return clean_tcp_summary(src, dst, ts, run_id, bps, probe_id="pscheduler-throughput")


@pytest.fixture
def job(run_tag):
    # from the end of the topics: what came before is other tests' (a week of it, on a local stack,
    # which the job would first have to catch up on)
    # the first live run, catastrophic, pages at once (with confirmation probes it would wait for
    # the run it asks for, which no agent serves here)
    flink_job.submit(run_tag, LIVE_JOB_ARGS + ["--confirm.enabled", "false"])
    time.sleep(5)  # the sources have their partitions: "latest" starts after this point
    yield run_tag
    flink_job.cancel(run_tag)


def test_imported_history_gives_a_link_its_baseline_on_day_one(job, produce, consume, run_tag, tmp_path):
    src, dst, control = f"{run_tag}-ps", f"{run_tag}-far", f"{run_tag}-ctl"
    now = now_ms()
    lines = []
    for day in range(1, 13):  # twelve old runs, one a day
        msg = archive("throughput", "iperf3-tcp-2streams-tbf20mbit", src, dst)
        msg["schedule"]["start"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime((now - day * DAY) / 1000))
        lines.append(json.dumps(msg))
    lines.append('{"id": "not-a-result"}')
    export = tmp_path / "export.jsonl"
    export.write_text("\n".join(lines) + "\n")

    code, rep, err = import_archive(export, tmp_path / "seen.log")
    assert code == 1 and (rep["records"], rep["accepted"], rep["duplicates"], rep["rejected"]) == (
        13,
        12,
        0,
        1,
    ), (rep, err)
    assert "export.jsonl:13: " in rep["problems"][0]

    # the first live run after the import, at 1 % of the imported rate, on the link and on a control
    first = consume(
        topic("history.throughput"),
        lambda m: m.get("src") == src and m.get("record") == "summary",
        timeout_s=60,
    )
    rate = first["bits_per_second"]
    # history and live runs are on different partitions: the live run waits until the job has read
    # the history (its group committed past it), as a run 4 h after an import would
    kafka.wait_caught_up({flink_job.job_name(job): [topic("history.throughput")]}, timeout_s=60)
    # a sample of 40 s ago: the job has seen nothing live yet (history moves no watermark), so it is
    # not late, and the sample that closes its minute below is no more than 22 s ahead of the broker
    # (the job's clock-skew tolerance is 30 s)
    live = now_ms() - 40_000
    produce(topic("raw.throughput"), summary(src, dst, live, rate / 100, f"{run_tag}-live"))
    # the control's run carries the history header `longhaul import` once set: a raw topic's sample
    # is live whatever its headers say (else it would learn silently, and publish no baseline)
    p = kafka.producer({"enable.idempotence": True})
    p.produce(
        topic("raw.throughput"),
        key=f"{control}|{dst}",
        value=json.dumps(summary(control, dst, live, rate / 100, f"{run_tag}-live")).encode(),
        headers=[("longhaul-history", b"1")],
    )
    assert p.flush(15) == 0
    alert = consume(
        topic("events"), lambda m: m["src"] == src and m["kind"] == "throughput_collapse", timeout_s=120
    )
    assert alert["ts"] == live and alert["severity"] == "critical"
    assert alert["evidence"]["history_runs"] == 12 and alert["evidence"]["baseline_bps"] == pytest.approx(
        rate, rel=0.01
    )

    # the baseline the alert names goes out with the link statistics, ready: the mesh matrix fills
    # with the first live run (history publishes none); the control link has one run of the ten
    def baseline(link):
        return consume(topic("stats"), lambda m: m["src"] == link and m["window"] == "baseline", timeout_s=60)

    judged = baseline(src)
    assert (judged["ts"], judged["runs"], judged["baseline_ready"], judged["series"]) == (
        live,
        12,
        True,
        "pscheduler-throughput",
    ), judged
    assert judged["baseline_bps"] == pytest.approx(alert["evidence"]["baseline_bps"], rel=1e-3)
    learning = baseline(control)
    assert (learning["runs"], learning["baseline_min_runs"], learning["baseline_ready"]) == (1, 10, False), (
        learning
    )

    # the live run was not late: a sample of the link past its 1m window (which ends within a minute
    # of the run, at the link's stagger) closes it, and the window's statistics come (history,
    # twelve days old, held no watermark back)
    produce(topic("raw.throughput"), summary(src, dst, live + 62_000, rate, f"{run_tag}-live2"))
    stats = consume(
        topic("stats"), lambda m: m["src"] == src and m["window"] == "1m" and holds(m, live), timeout_s=120
    )
    assert stats["runs"] == 1, stats  # the live run (a summary is a run, not an interval sample)

    # nothing came from the history itself, and the control link only started learning
    seen = kafka.read_all(
        topic("events"), lambda e: e["src"] in (src, control), lambda _: False, timeout_s=10
    )
    assert all(e["ts"] >= live - 60_000 for e in seen), f"an event from the history: {seen}"
    # one episode, on the imported link only (other jobs of the shared stack, such as the session's
    # mesh_run job, read the same topics and raise the same event: same episode, same content)
    collapses = {(e["src"], e["episode_id"]) for e in seen if e["kind"] == "throughput_collapse"}
    assert collapses == {(src, alert["episode_id"])}, json.dumps(seen, indent=1)

    # imported again: duplicates, nothing sent
    code, rep, err = import_archive(export, tmp_path / "seen.log")
    assert (rep["accepted"], rep["duplicates"], rep["rejected"]) == (0, 12, 1), (rep, err)
