"""One bad clock must not blind the mesh, on the real stack: real Kafka producers publish a
healthy link's pings (measured over the last minutes, sent now by a correct clock, as an agent
delivers its spool after an outage) beside those of a host whose clock runs an hour ahead, or an
hour behind. The raw topics are LogAppendTime, so the Flink job judges each sample's send time
(header sent_ms) against the broker's: the skewed host's samples become dead letters with a
clock_skew reason, and the healthy link keeps every minute of statistics and raises no no_data.

The healthy link's pings come in two parts; between them the skewed host starts sending, a ping a
second as long as the test reads (more often than the job's idleness, as an agent keeps
sending), and the job has a few seconds to emit watermarks. Ahead, the skewed host shares the
healthy link's partition: taken at its word it would push that partition's watermark an hour
ahead, so the second part would come late (its minutes lost) and the link's silence timer would
fire (no_data, then data_resumed). Behind, it has a partition of its own: taken at its word, that
partition would hold every window of the job back by an hour. A control run with the rule
disabled (--clock-skew-tolerance 2h) showed both: see
flink-jobs/src/main/java/org/longhaul/flink/functions/README.md, Clock skew."""

import contextlib
import json
import re
import threading
import time

import flink_job
import pytest
from confluent_kafka import TIMESTAMP_LOG_APPEND_TIME
from conftest import CONTRACT, holds, kafka, now_ms, topic

MINUTE, HOUR = 60_000, 3_600_000
SENT_MS = CONTRACT.header("sent_ms")
TOLERANCE_S = CONTRACT.threshold("clock_skew_tolerance_s")
HEALTHY_MINUTES = 6  # the first three before the skewed host starts, the rest after


def ping(src, ts):
    return {
        "schema": "rtt_sample",
        "version": 1,
        "src": src,
        "dst": "lyon",
        "probe_id": "ping",
        "ts": ts,
        "run_id": f"ping-{ts}",
        "tool": "ping",
        "sent": 10,
        "received": 10,
        "loss_percent": 0.0,
        "rtt_min_ms": 279.5,
        "rtt_avg_ms": 280.0,
        "rtt_max_ms": 281.0,
        "rtt_mdev_ms": 0.5,
    }


class Agent:
    """A real Kafka producer publishing as an agent does: keyed src|dst, with header sent_ms."""

    def __init__(self):
        self.p = kafka.producer({"enable.idempotence": True})
        self.delivered = []

    def send(self, msg, sent_ms, partition):
        """Produces msg to raw.rtt's partition, stamped sent_ms."""
        self.p.produce(
            topic("raw.rtt"),
            key=f"{msg['src']}|{msg['dst']}",
            value=json.dumps(msg).encode(),
            partition=partition,
            headers=[(SENT_MS, str(sent_ms).encode("ascii"))],
            on_delivery=lambda err, m: self.delivered.append((err, m.timestamp()[0])),
        )

    def flush(self):
        assert self.p.flush(15) == 0, "Kafka did not acknowledge every message"
        assert all(err is None for err, _ in self.delivered), self.delivered
        assert {kind for _, kind in self.delivered} == {TIMESTAMP_LOG_APPEND_TIME}, (
            "the raw topic is not LogAppendTime"
        )


@contextlib.contextmanager
def skewed_host(src, skew_ms, partition):
    """An agent whose clock is skew_ms off, sending a ping a second until the block ends; yields
    the list of what it has sent."""
    sent, stop = [], threading.Event()

    def run():
        agent = Agent()
        while not stop.is_set():
            clock = now_ms() + skew_ms
            agent.send(ping(src, clock - 5_000), clock, partition)
            agent.flush()
            sent.append(clock)
            stop.wait(1.0)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        yield sent
    finally:
        stop.set()
        t.join(30)


@pytest.mark.parametrize("direction,skew_ms,partition", [("ahead", HOUR, 0), ("behind", -HOUR, 1)])
def test_a_skewed_clock_is_dead_lettered_and_the_healthy_link_keeps_its_statistics(
    job, run_tag, direction, skew_ms, partition
):
    healthy, skewed = run_tag, f"{run_tag}-skewed"
    # what the job writes from here on: a stack that ran benchmarks holds millions of records
    marks = {t: kafka.end_offsets(topic(t)) for t in ("stats", "events", "dead_letter")}
    agent = Agent()
    now = now_ms()
    first = (now // MINUTE - HEALTHY_MINUTES - 1) * MINUTE
    # three pings within one second of each minute: whatever the link's stagger (whole seconds),
    # each minute's three are in one 1m window of their own
    clusters = [first + m * MINUTE + 10_000 for m in range(HEALTHY_MINUTES)]
    pings = [c + s for c in clusters for s in (0, 300, 600)]
    pings.append(first + HEALTHY_MINUTES * MINUTE + 50_000)  # closes the last window
    half = len(pings) // 2

    for ts in pings[:half]:
        agent.send(ping(healthy, ts), now, 0)
    agent.flush()

    def window_of(ss, ts):
        return next((s for s in ss if holds(s, ts)), None)

    with skewed_host(skewed, skew_ms, partition) as skewed_sent:
        time.sleep(4)  # the job reads the first ones and emits watermarks before the rest arrives
        for ts in pings[half:]:
            agent.send(ping(healthy, ts), now_ms(), 0)
        agent.flush()
        minutes = kafka.read_all(
            topic("stats"),
            lambda s: s["src"] == healthy and s["window"] == "1m",
            lambda ss: all(window_of(ss, c) for c in clusters),
            120,
            quiet_s=0,
            start=marks["stats"],
        )
        # the watermark has passed the healthy link's minutes: a silence timer the skewed clock
        # had pushed past would have fired by now, and its event follows the statistics within
        # seconds (the same job, the same checkpoint)
        silences = kafka.read_all(
            topic("events"),
            lambda e: e["src"] == healthy and e["kind"] in ("no_data", "data_resumed"),
            lambda es: bool(es),
            6,
            quiet_s=0,
            start=marks["events"],
        )

    assert [window_of(minutes, c)["samples"] for c in clusters] == [3] * HEALTHY_MINUTES, minutes
    assert not kafka.read_all(
        topic("stats"), lambda s: s["src"] == skewed, lambda ss: bool(ss), 5, quiet_s=0, start=marks["stats"]
    ), "the skewed host's samples must not make statistics"
    assert silences == [], silences
    dead = kafka.read_all(
        topic("dead_letter"),
        lambda d: d["src"] == skewed,
        lambda ds: len(ds) >= len(skewed_sent),
        60,
        quiet_s=0,
        start=marks["dead_letter"],
    )
    assert len(skewed_sent) >= 10 and len(dead) == len(skewed_sent), (
        f"{len(dead)} of {len(skewed_sent)} skewed samples dead-lettered"
    )
    reason = re.compile(
        r"clock_skew: the agent's clock is ([0-9.]+) s (ahead of|behind) the broker's "
        rf"\(tolerance {TOLERANCE_S:g} s\)"
    )
    for d in dead:
        assert d["source_topic"] == topic("raw.rtt")
        said = reason.fullmatch(d["reason"])
        assert said and said[2] == ("ahead of" if direction == "ahead" else "behind"), d["reason"]
        assert abs(float(said[1]) - HOUR / 1000) < 30, d[
            "reason"
        ]  # an hour, give or take the trip to the broker

    print(
        f"\n{direction}: {len(dead)} of {len(skewed_sent)} skewed samples dead-lettered ({dead[0]['reason']}); "
        f"healthy link's minutes {[window_of(minutes, c)['samples'] for c in clusters]}"
    )
    assert flink_job.states(job)[0] == "RUNNING"
