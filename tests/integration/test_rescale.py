"""Rescaling keeps every baseline: the job on the stack's cluster learns sixteen links' throughput
baselines at parallelism 1, is stopped with a savepoint and restored at parallelism 2 (two slots
of the TaskManager: the links' key groups split between two subtasks), then at 1 again. After each
rescale a collapse on half the links is judged at once against the baseline learnt before (a
link whose history were lost would only start learning), and a link that never had one raises
nothing. The job reads a raw throughput topic of its own (--topic-throughput): the session's other
jobs read the contract's, and their events would be indistinguishable from this one's."""

import time

import flink_job
import kafka
import pytest
from confluent_kafka.admin import NewTopic
from conftest import LIVE_JOB_ARGS, now_ms, topic
from messages import clean_tcp_summary

LINKS = 16
HEALTHY = 100e6
# a catastrophic run pages at once, judged against the baseline (with confirmation probes it
# would wait for the run it asks for, which no agent serves here)
ARGS = LIVE_JOB_ARGS + ["--confirm.enabled", "false"]


def summary(src, ts, bps, run):
    return clean_tcp_summary(src, "rescale-far", ts, run, bps, probe_id="tput")


def collapse_all(produce, consume, raw, links, tag, step):
    """A catastrophic run on each link; returns the collapse alerts, one per link, in link order."""
    ts = now_ms() - 1_000
    for src in links:
        produce(raw, summary(src, ts, HEALTHY / 100, f"{tag}-{step}"))
    return [
        consume(
            topic("events"),
            lambda m, s=src: m["src"] == s and m["kind"] == "throughput_collapse",
            timeout_s=120,
        )
        for src in links
    ]


@pytest.fixture
def raw(run_tag):
    """A raw throughput topic of the test's own (the flink user reads the raw prefix)."""
    name = topic("raw.throughput") + "." + run_tag
    admin = kafka.admin()
    for f in admin.create_topics([NewTopic(name, 4, 1)]).values():
        f.result(30)
    yield name
    for f in admin.delete_topics([name]).values():
        f.result(30)


@pytest.fixture
def name(run_tag):
    yield run_tag
    try:
        flink_job.cancel(run_tag)
    except AssertionError:
        pass  # already stopped


def test_rescaling_one_two_one_keeps_every_links_baseline(raw, name, produce, consume, run_tag):
    links = [f"{run_tag}-l{i}" for i in range(LINKS)]
    marker = f"{run_tag}-marker"
    args = ARGS + ["--topic-throughput", raw]
    flink_job.submit(name, args + ["--parallelism", "1"])
    time.sleep(5)  # the sources have their partitions: "latest" starts after this point
    start = now_ms() - 60_000
    for run in range(10):  # the detector's min-history: ten healthy runs each
        for i, src in enumerate(links + [marker]):
            produce(
                raw, summary(src, start + run * 1_000 + i, HEALTHY * (1 + 0.01 * run), f"{run_tag}-h{run}")
            )
    first = flink_job.stop(name)  # records not yet read are after the savepoint's offsets: read after restore

    job = flink_job.submit(name, args + ["--parallelism", "2"], restore=first)
    assert 2 in flink_job.parallelism(job).values(), flink_job.parallelism(job)
    for alert in collapse_all(produce, consume, raw, links[: LINKS // 2], run_tag, "p2"):
        assert alert["evidence"]["history_runs"] == 10, alert
        assert alert["evidence"]["baseline_bps"] == pytest.approx(HEALTHY * 1.045, rel=0.01), alert
    second = flink_job.stop(name)

    job = flink_job.submit(name, args + ["--parallelism", "1"], restore=second)
    assert set(flink_job.parallelism(job).values()) == {1}
    for alert in collapse_all(produce, consume, raw, links[LINKS // 2 :], run_tag, "p1"):
        assert alert["evidence"]["history_runs"] == 10, alert

    # control: a link without history only starts learning, whatever the parallelism
    fresh = f"{run_tag}-fresh"
    produce(raw, summary(fresh, now_ms() - 1_000, HEALTHY / 100, f"{run_tag}-fresh"))
    collapse_all(produce, consume, raw, [marker], run_tag, "marker")  # produced after the fresh run
    with pytest.raises(AssertionError):
        consume(topic("events"), lambda m: m["src"] == fresh, timeout_s=5)
