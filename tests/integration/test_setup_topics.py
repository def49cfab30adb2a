"""`longhaul setup` on an install older than the clock-skew rule: a raw topic made with the
producer's timestamps (CreateTime) is altered to LogAppendTime, incrementally (its retention is
left alone), and setup says so; a second run finds nothing to change."""

import os
import pathlib
import subprocess
import uuid

import pytest
from confluent_kafka.admin import ConfigResource, NewTopic, ResourceType
from conftest import kafka

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "bin" / "longhaul"


def setup_topics(topics_file):
    r = subprocess.run(
        [str(CLI), "setup", "--no-influx", "--topics", str(topics_file)],
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def configs(admin, name):
    res = ConfigResource(ResourceType.TOPIC, name)
    return {k: v.value for k, v in admin.describe_configs([res])[res].result(30).items()}


@pytest.fixture
def old_topic():
    """A topic as an install older than the rule made it: CreateTime, a retention tuned by hand."""
    admin = kafka.admin()
    name = "longhaul.it-upgrade-" + uuid.uuid4().hex[:8]
    admin.create_topics(
        [NewTopic(name, 2, 1, config={"message.timestamp.type": "CreateTime", "retention.ms": "3600000"})]
    )[name].result(30)
    yield admin, name
    admin.delete_topics([name])[name].result(30)


def test_setup_turns_an_existing_raw_topic_to_log_append_time_and_says_so(old_topic, tmp_path):
    admin, name = old_topic
    topics_file = tmp_path / "topics.yaml"
    topics_file.write_text(f"""topics:
  - name: {name}
    schema: throughput_sample.v1
    partitions: 2
    cleanup_policy: delete
    retention_ms: 604800000
    timestamp_type: LogAppendTime
""")
    out = setup_topics(topics_file)
    assert (
        f"topic {name} had message.timestamp.type=CreateTime (topics.yaml says LogAppendTime); altered" in out
    ), out
    have = configs(admin, name)
    assert have["message.timestamp.type"] == "LogAppendTime"
    assert have["retention.ms"] == "3600000", "setup changes only what the pipeline is wrong without"

    again = setup_topics(topics_file)
    assert "altered" not in again and "created" not in again, again
