"""pScheduler's Kafka archiver (perfsonar/pscheduler pscheduler-archiver-kafka/kafka/archive) as it
handles one result, for the tests: the same library (kafka-python), the same KafkaProducer
arguments taken from the same keys of the archive's data, the PEM contents written to temporary
files, one producer per result, send without waiting, close. Run in Python's isolated mode
(`python -I`), so `kafka` is kafka-python and not tests/lib/kafka.py:

    python -I kafka_archiver_plugin.py ARCHIVE.json < RESULT.json

prints {"succeeded": true} or {"succeeded": false, "error": "..."} as the plugin answers
pScheduler; like the plugin, a failure is not retried here (it never reaches its retry-policy:
perfsonar/psbridge/README.md, "Configuring pScheduler"). A model, one process per result: each temporary
file is removed once, so the unchanged plugin's second os.unlink (FileNotFoundError, the process
dies: after a refusal, and on every second result of a long-lived process) is not reproduced."""

import json
import os
import sys
import tempfile

from kafka import KafkaProducer


def temp_file(data):
    f = tempfile.NamedTemporaryFile(delete=False)
    f.write(bytes(data, "utf-8"))
    f.flush()
    f.close()
    return f.name


def archive(data, message):
    files = []
    try:
        if data["security-protocol"] == "SSL":
            files = [temp_file(data[k]) for k in ("_ssl-cacert", "_ssl-cert", "_ssl-key")]
            producer = KafkaProducer(
                bootstrap_servers=data["server"],
                client_id=data["archiver-id"],
                retries=data["kafka-retries"],
                security_protocol="SSL",
                ssl_cafile=files[0],
                ssl_certfile=files[1],
                ssl_keyfile=files[2],
                ssl_password=data["_ssl-password"],
                ssl_check_hostname=data["ssl-checkhostname"],
            )
        else:
            producer = KafkaProducer(
                bootstrap_servers=data["server"], client_id=data["archiver-id"], retries=data["kafka-retries"]
            )
        producer.send(data["topic"], message)
        producer.close()
        return {"succeeded": True}
    except Exception as ex:  # the plugin's answer to pScheduler
        return {"succeeded": False, "error": f"Failed to send message: {type(ex).__name__}: {ex}"}
    finally:
        for f in files:
            os.unlink(f)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    assert spec["archiver"] == "kafka", spec["archiver"]
    result = json.loads(sys.stdin.read())
    # pscheduler.json_dump(json["result"]).encode("utf-8"): the run's JSON, compact
    print(json.dumps(archive(spec["data"], json.dumps(result, separators=(",", ":")).encode("utf-8"))))
