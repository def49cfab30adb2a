"""What the identity tests share (test_own_topics.py, test_upgrades_in_place.py): a trace of
some src, written to a topic as an agent or a bridge writes it, and a Kafka user made as an
earlier release made it (its credential and its grants, without `longhaul admin`)."""

import json
import pathlib

from confluent_kafka.admin import (
    AclBinding,
    AclPermissionType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from conftest import CONTRACT, kafka, now_ms

ROOT = pathlib.Path(__file__).resolve().parents[2]
SENT_MS = CONTRACT.header("sent_ms")
EXAMPLE = ROOT / "ingest/schemas/examples/path_sample.v2/valid/reached-with-star-and-ecmp.json"


def trace(src, ts):
    """A valid path_sample.v2 of src measured at ts (the contract's example, renamed)."""
    s = json.loads(EXAMPLE.read_text())
    s.update(src=src, dst=f"{src}-far", ts=ts, run_id=f"trace-{src}-{ts}")
    return s


def with_src_given_twice(sample, first_src):
    """The bytes of sample with its "src" given twice: first_src first, the sample's own last
    (what a reader keeping the first copy and one keeping the last would read differently)."""
    return f'{{"src": {json.dumps(first_src)}, {json.dumps(sample)[1:]}'.encode()


def send_as(user, password_file, own, samples):
    """Writes samples (dicts, or the bytes of one) to the agent's own topic as the agent does (its
    credential, sent_ms)."""
    p = kafka.producer({"message.timeout.ms": 15000}, user=user, password_file=password_file)
    for s in samples:
        value = s if isinstance(s, bytes) else json.dumps(s).encode()
        link = json.loads(value)  # the last copy of a key given twice
        p.produce(
            own, key=f"{link['src']}|{link['dst']}", value=value, headers=[(SENT_MS, str(now_ms()).encode())]
        )
    assert p.flush(15) == 0, "Kafka did not take the agent's samples"


def user_of_a_release(user, password, grants):
    """Makes Kafka user `user` as an earlier release did: its SCRAM credential, and an ALLOW of
    each grant (resource type, name, pattern type, operation)."""
    adm = kafka.admin()
    cred = UserScramCredentialUpsertion(
        user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password.encode()
    )
    for f in adm.alter_user_scram_credentials([cred]).values():
        f.result(30)
    acls = [
        AclBinding(kind, name, pattern, f"User:{user}", "*", op, AclPermissionType.ALLOW)
        for kind, name, pattern, op in grants
    ]
    for f in adm.create_acls(acls).values():
        f.result(30)
    return adm
