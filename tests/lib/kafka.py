"""How the Python tests and benchmarks reach Kafka: one place for the connection settings, read
from the environment under the names every Longhaul program reads (LONGHAUL_KAFKA, and for the
secured stack LONGHAUL_KAFKA_SECURITY, _CA, _USER, _PASSWORD_FILE), so every producer and consumer
connects the same way. scripts/test-all.sh gives the tests the admin user."""

import json
import os
import pathlib
import time
import uuid

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient

BOOTSTRAP = os.environ.get("LONGHAUL_KAFKA", "127.0.0.1:9092")
SECURITY = os.environ.get("LONGHAUL_KAFKA_SECURITY", "sasl_ssl")


def password(path):
    """A password file's content without its trailing newline (never printed)."""
    secret = pathlib.Path(path).read_text().rstrip("\r\n")
    assert secret, f"password file {path} is empty"
    return secret


def connection(user=None, password_file=None):
    """librdkafka settings of the connection, as the environment's user or the one given."""
    conf = {"bootstrap.servers": BOOTSTRAP}
    if SECURITY == "plaintext":
        return conf
    conf["security.protocol"] = "SASL_SSL" if SECURITY == "sasl_ssl" else "SSL"
    if os.environ.get("LONGHAUL_KAFKA_CA"):
        conf["ssl.ca.location"] = os.environ["LONGHAUL_KAFKA_CA"]
    if SECURITY == "sasl_ssl":
        conf["sasl.mechanism"] = "SCRAM-SHA-512"
        conf["sasl.username"] = user or os.environ["LONGHAUL_KAFKA_USER"]
        conf["sasl.password"] = password(password_file or os.environ["LONGHAUL_KAFKA_PASSWORD_FILE"])
    return conf


def producer(options=None, **identity):
    """A producer with librdkafka's options ({"linger.ms": 20}) on the connection."""
    return Producer({**connection(**identity), **(options or {})})


def consumer(options, **identity):
    """A consumer with librdkafka's options ({"group.id": ..., ...}) on the connection."""
    return Consumer({**connection(**identity), **options})


def admin(**identity):
    """An admin client (topics, configs) on the connection."""
    return AdminClient(connection(**identity))


def wait_caught_up(groups, timeout_s=120):
    """Waits until each consumer group of `groups` ({group: [topic, …]}) has committed past every
    record of its topics, e.g. Telegraf's groups once it has written all it read to InfluxDB;
    returns the seconds it took. "Past every record", not "at the end offset": a transactional
    topic's last offset is a commit marker that no consumer commits past."""
    start = time.time()
    for group, topics in groups.items():
        c = consumer({"group.id": group, "enable.auto.commit": False})
        reader = consumer(
            {
                "group.id": "caught-up-" + group,
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
            }
        )
        try:
            parts = [
                TopicPartition(t, p)
                for t in topics
                for p in c.list_topics(t, timeout=30).topics[t].partitions
            ]
            while True:
                committed = c.committed(parts, timeout=30)
                reader.assign([TopicPartition(tp.topic, tp.partition, max(tp.offset, 0)) for tp in committed])
                unread = _first_record(reader, 2.0)
                if unread is None:
                    break
                assert time.time() - start < timeout_s, (
                    f"group {group} has not committed {unread.topic()}[{unread.partition()}] offset "
                    f"{unread.offset()} after {timeout_s} s"
                )
                time.sleep(0.5)
        finally:
            c.close()
            reader.close()
    return time.time() - start


def records(c, until, poll_s=0.5):
    """Each record consumer c returns, errors passed over (a broker moving, a partition's end):
    the one consume loop of the tests and benchmarks. until() is asked before every poll (at most
    poll_s apart, records or not) and ends the loop once true; a caller may also break."""
    while not until():
        m = c.poll(poll_s)
        if m is not None and not m.error():
            yield m


def within(seconds):
    """An until() for records(): true once `seconds` have passed from now."""
    end = time.time() + seconds
    return lambda: time.time() >= end


def _first_record(c, quiet_s):
    """The first record c's assignment returns within quiet_s, or None."""
    return next(records(c, within(quiet_s), poll_s=0.2), None)


def end_offsets(topic):
    """Each partition's end offset now, for read_all(..., start=) to read what comes after: a topic
    that benchmarks filled with millions of records is not read from its start."""
    c = consumer({"group.id": "it-" + uuid.uuid4().hex, "enable.auto.commit": False})
    try:
        ends = {}
        for p in c.list_topics(topic, timeout=30).topics[topic].partitions:
            _, high = c.get_watermark_offsets(TopicPartition(topic, p), timeout=30)
            ends[p] = high
        return ends
    finally:
        c.close()


def read_all(topic, keep, want, timeout_s=60, quiet_s=3.0, start=None):
    """Every committed message of `topic` (JSON, read from its start, or from the offsets `start`
    of end_offsets()) that keep() accepts: once `want` holds (a count, or a predicate on the list)
    and quiet_s more have passed with none added (so a duplicate after them would be seen), or when
    timeout_s has passed."""
    enough = want if callable(want) else (lambda found: len(found) >= want)
    c = consumer(
        {
            "group.id": "it-" + uuid.uuid4().hex,
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
        }
    )
    if start is None:
        c.subscribe([topic])
    else:
        c.assign([TopicPartition(topic, p, o) for p, o in start.items()])
    found, quiet = [], []  # quiet: the until() of the quiet_s after `want` first held
    timed_out = within(timeout_s)

    def until():
        if not quiet and enough(found):
            quiet.append(within(quiet_s))
        return timed_out() or (quiet and quiet[0]())

    try:
        for m in records(c, until):
            msg = json.loads(m.value())
            if keep(msg):
                found.append(msg)
    finally:
        c.close()
    return found


def first_error(c, topic, timeout_s=30):
    """The first error consumer c gets reading topic (subscribed here; None if it reads for
    timeout_s without one). Closes c."""
    c.subscribe([topic])
    deadline = time.time() + timeout_s
    try:
        while time.time() < deadline:
            m = c.poll(1.0)
            if m is not None and m.error():
                return m.error()
        return None
    finally:
        c.close()


def group_refusal(group, topic, timeout_s=30, **identity):
    """The refusal a consumer of topic in group gets as the identity given (user=,
    password_file=), or None once it has joined the group (an assignment) without one."""
    c = consumer({"group.id": group, "auto.offset.reset": "latest"}, **identity)
    assigned = []
    c.subscribe([topic], on_assign=lambda _c, parts: assigned.extend(parts))
    deadline = time.time() + timeout_s
    try:
        while time.time() < deadline and not assigned:
            m = c.poll(0.5)
            if m is not None and m.error():
                return m.error()
        assert assigned, (
            f"{identity.get('user')} in {group}: neither refused nor assigned within {timeout_s} s"
        )
        return None
    finally:
        c.close()
