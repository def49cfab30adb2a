"""How the Python tests and benchmarks reach Kafka: one place for the connection settings, read
from the environment under the names every Longhaul program reads (LONGHAUL_KAFKA, and for the
secured stack LONGHAUL_KAFKA_SECURITY, _CA, _USER, _PASSWORD_FILE), so every producer and consumer
connects the same way. scripts/test-all.sh gives the tests the admin user."""

import os
import pathlib

from confluent_kafka import Consumer, Producer
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
