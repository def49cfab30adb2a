"""`longhaul job abort-transactions` on the running stack. A Flink job whose TaskManager dies
(killed, out of memory, its host gone) and that is not restarted under its name leaves the Kafka
transaction of its last checkpoint open until its timeout (the job's --transaction-timeout,
10 min), and every read_committed reader of those partitions (the alert bridge, Telegraf, the
agents' probe requests) waits behind it, even for what others write after it. A graceful cancel
does not (Flink aborts it on the way out: measured, CompleteAbort), so the test leaves one open as
a killed TaskManager does: a transactional producer under the job's sink's id, killed -9 mid
transaction."""

import json
import pathlib
import signal
import subprocess
import sys
import time

import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from conftest import kafka
from operator_cli import longhaul

LIB = pathlib.Path(__file__).resolve().parents[1] / "lib"

# a KafkaSink's writer: its transactional id, a record in its transaction, then killed -9
KILLED_WRITER = """
import json, os, signal, sys
sys.path.insert(0, sys.argv[1])
import kafka
p = kafka.producer({"transactional.id": sys.argv[2], "transaction.timeout.ms": 600000})  # the job's 10 min
p.init_transactions(30)
p.begin_transaction()
p.produce(sys.argv[3], value=json.dumps({"uncommitted": sys.argv[2]}).encode())
assert p.flush(15) == 0
print("open", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def marker_readable(dead, offset, marker, timeout_s):
    got = kafka.read_all(dead, lambda d: d == marker, 1, timeout_s=timeout_s, quiet_s=0, start={0: offset})
    return bool(got)


@pytest.fixture
def scratch(run_tag):
    """A topic of the test's own, one partition: what it writes (an aborted record, a marker that
    is no dead letter) must not reach the contract's topics, which other tests read whole."""
    name = f"longhaul-it-scratch-{run_tag}"
    admin = AdminClient(kafka.connection())
    for f in admin.create_topics([NewTopic(name, num_partitions=1, replication_factor=-1)]).values():
        f.result(30)
    yield name
    for f in admin.delete_topics([name]).values():
        f.result(30)


def test_a_dead_jobs_open_transaction_is_aborted_and_holds_no_reader_back(run_tag, scratch):
    name = "longhaul-" + run_tag
    txn = f"{name}-deadletter-0-7"  # "<job>-<sink>-<subtask>-<checkpoint>", as the job's sinks name theirs
    dead = scratch
    r = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(LIB), txn, dead], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == -signal.SIGKILL and "open" in r.stdout, r.stderr
    # what another writer puts on the topic after it: held back from committed readers
    p = kafka.producer()
    offsets, marker = [], {"marker": run_tag}
    p.produce(dead, value=json.dumps(marker).encode(), on_delivery=lambda err, m: offsets.append(m.offset()))
    assert p.flush(15) == 0 and offsets, "Kafka did not acknowledge the marker"
    assert not marker_readable(dead, offsets[0], marker, 5), "no transaction held the reader: nothing to test"

    out = longhaul("job", "abort-transactions", "--name", name)
    assert out.strip() == f"aborted 1 open Kafka transactions of job {name}: {txn}", out
    t0 = time.time()
    assert marker_readable(dead, offsets[0], marker, 30), "a read_committed reader still waits behind it"
    print(f"marker read {time.time() - t0:.1f} s after the abort")
    # another job's transactions are not its: a second run finds none
    assert longhaul("job", "abort-transactions", "--name", name + "-x").startswith("aborted 0 ")
