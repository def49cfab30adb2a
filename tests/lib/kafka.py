"""How the Python tests and benchmarks reach Kafka: one place for the connection settings
(the address is LONGHAUL_KAFKA, the name every Longhaul program reads), so every producer and
consumer connects the same way."""
import os

from confluent_kafka import Consumer, Producer

BOOTSTRAP = os.environ.get("LONGHAUL_KAFKA", "127.0.0.1:9092")


def connection():
    """librdkafka settings of the connection, without producer or consumer options."""
    return {"bootstrap.servers": BOOTSTRAP}


def producer(options=None):
    """A producer with librdkafka's options ({"linger.ms": 20}) on the connection."""
    return Producer({**connection(), **(options or {})})


def consumer(options):
    """A consumer with librdkafka's options ({"group.id": ..., ...}) on the connection."""
    return Consumer({**connection(), **options})
