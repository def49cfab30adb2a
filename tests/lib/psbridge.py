"""The agent as pScheduler bridge, as the tests and the benchmark run it: `longhaul-probe run` with only
a pscheduler_bridge section, as the psbridge Kafka user, against the native stack; pScheduler's
Kafka archiver as it connects (SSL with its certificate, no SASL, no key); golden archive messages
of the parsers with a fresh run id and a link of the caller's."""

import json
import os
import pathlib
import signal
import subprocess
import time
import uuid

import kafka
import requests
import stack
from confluent_kafka import Producer, TopicPartition
from longhaul_contract import CONTRACT

ROOT = pathlib.Path(__file__).resolve().parents[2]
SECRETS = pathlib.Path(os.environ["LONGHAUL_SECRETS_DIR"])
GOLDEN = ROOT / "probes"
TOPIC = CONTRACT.topic("pscheduler.results")
HTTP_PORT, HEALTH_PORT = 19196, 19273  # the bridge's, beside the stack's ports


def archive(kind, case, src, dst):
    """A golden archive message with a fresh run id and the test's own link."""
    msg = json.loads((GOLDEN / kind / "testdata" / "pscheduler" / case / "input.json").read_text())
    msg["id"] = str(uuid.uuid4())
    spec = msg["test"].setdefault("spec", {})
    spec["source"], spec["dest"] = src, dst
    msg["participants"] = [src]
    return msg


def archiver_producer():
    """pScheduler's Kafka archiver as it connects: SSL with its client certificate, no SASL."""
    cert = SECRETS / "pscheduler"
    return Producer(
        {
            "bootstrap.servers": os.environ["LONGHAUL_KAFKA_ARCHIVER"],
            "security.protocol": "SSL",
            "ssl.ca.location": str(SECRETS / "ca.crt"),
            "ssl.certificate.location": f"{cert}.crt",
            "ssl.key.location": f"{cert}.key",
            "acks": "all",
        }
    )


def send(producer, topic, value):
    errors = []
    producer.produce(topic, value=value, on_delivery=lambda err, _m: errors.append(err))
    producer.flush(30)
    return errors[0] if errors else "not delivered"


def group_at_the_end(topic):
    """A consumer group of its own (the psbridge user's prefix), its offsets committed at the end of
    topic and of every pScheduler host's own topic of it that exists: a bridge in it reads what is
    written from now on (and hosts' topics made later from their start), not what earlier runs or
    make demo left there."""
    group = f"longhaul-psbridge-it-{uuid.uuid4().hex[:8]}"
    c = kafka.consumer({"group.id": group, "enable.auto.commit": False})
    try:
        ends = []
        listed = c.list_topics(timeout=30).topics
        assert topic in listed, (
            f"{topic} is not among the {len(listed)} topics Kafka lists to the tests' user: a stack started "
            "without LONGHAUL_KAFKA_TEST_SUPER_USER lists nothing to the tests' user (make test and make "
            "bench start theirs with it)"
        )
        for name, meta in listed.items():
            if name == topic or name.startswith(
                topic + CONTRACT.own["separator"] + CONTRACT.own["archiver_prefix"]
            ):
                ends += [
                    TopicPartition(name, p, c.get_watermark_offsets(TopicPartition(name, p), timeout=30)[1])
                    for p in meta.partitions
                ]
        # a host's partition without an end offset (-1) is left out: librdkafka refused the whole
        # commit ("No offset stored") when fleet.py ran after another fleet run (2026-12-03; not
        # reproduced by deleting a host's topic just before). The results topic must have one.
        ends = [tp for tp in ends if tp.offset >= 0 or tp.topic == topic]
        assert all(tp.offset >= 0 for tp in ends), f"{topic} has no end offset: {ends}"
        c.commit(offsets=ends, asynchronous=False)
    finally:
        c.close()
    return group


class Bridge:
    """longhaul-probe run with only a pscheduler_bridge section, as the psbridge Kafka user (or
    another), in a consumer group of its own that starts at the end of the archivers' topic."""

    def __init__(
        self,
        tmp,
        fsync="always",
        bootstrap=None,
        hosts=None,
        host_rate=None,
        max_concurrent=None,
        instance=0,
        user="psbridge",
        password_file=None,
    ):
        """bootstrap: the brokers the bridge is given (default the stack's: another one makes a
        bridge that cannot reach Kafka, whose spool holds what it takes); user, password_file: its
        Kafka user (default the stack's shared psbridge, with its password file); hosts: its
        pscheduler_bridge.hosts (default none: any identity for any host); host_rate: its
        pscheduler_bridge.host_rate, max_concurrent: its pscheduler_bridge.max_concurrent (each
        default the bridge's); instance: another bridge of the same fleet beside the first (0),
        on the first's ports + instance, its src psbridge-it<instance>."""
        self.hosts, self.host_rate, self.max_concurrent = hosts, host_rate, max_concurrent
        self.instance = instance
        if instance:
            self.url = f"https://127.0.0.1:{HTTP_PORT + instance}/pscheduler/results"
            self.health_url = f"http://127.0.0.1:{HEALTH_PORT + instance}/health"
        self.tmp = tmp
        self.group = group_at_the_end(TOPIC)
        stack.run("ensure_cert psbridge-http ec")
        (tmp / "token").write_text(uuid.uuid4().hex + "\n")
        (tmp / "token").chmod(0o600)
        self.token = (tmp / "token").read_text().strip()
        # the hosts' own tokens (host_tokens_dir): a test puts NAME.token there
        self.host_tokens = tmp / "host-tokens"
        self.host_tokens.mkdir(mode=0o700, exist_ok=True)
        self.bootstrap, self.fsync = bootstrap, fsync
        self.user, self.password_file = user, password_file or SECRETS / "kafka-psbridge.password"
        self.write_config()
        self.proc = None

    def write_config(self):
        tmp, bootstrap, fsync = self.tmp, self.bootstrap, self.fsync
        (tmp / "bridge.yaml").write_text(f"""src: psbridge-it{self.instance or ""}
kafka:
  bootstrap: [{bootstrap or os.environ["LONGHAUL_KAFKA"]}]
  security: sasl_ssl
  tls: {{ca_file: {SECRETS}/ca.crt}}
  sasl: {{user: {self.user}, password_file: {self.password_file}}}
spool: {{dir: {tmp}/spool, fsync: {fsync}}}
health: {{listen: "127.0.0.1:{HEALTH_PORT + self.instance}"}}
schemas_dir: {ROOT}/ingest/schemas
pscheduler_bridge:
  listen: 127.0.0.1:{HTTP_PORT + self.instance}
  tls_cert_file: {SECRETS}/psbridge-http.crt
  tls_key_file: {SECRETS}/psbridge-http.key
  token_file: {tmp}/token
  host_tokens_dir: {self.host_tokens}
  topic: {TOPIC}
  group: {self.group}
""")
        with open(tmp / "bridge.yaml", "a") as f:
            if self.hosts is not None:
                f.write(f"  hosts: {json.dumps(self.hosts)}\n")
            if self.host_rate is not None:
                f.write(f"  host_rate: {self.host_rate}\n")
            if self.max_concurrent is not None:
                f.write(f"  max_concurrent: {self.max_concurrent}\n")

    def start(self, await_kafka=True):
        # the config names the brokers: LONGHAUL_KAFKA would override its bootstrap
        env = {k: v for k, v in os.environ.items() if not k.startswith("LONGHAUL_KAFKA")}
        self.log = open(self.tmp / "bridge.log", "ab")
        self.proc = subprocess.Popen(
            [str(ROOT / "bin" / "longhaul-probe"), "run", "--config", str(self.tmp / "bridge.yaml")],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            self._await_up(await_kafka)
        except BaseException:
            self.stop(signal.SIGKILL)
            raise

    def _await_up(self, await_kafka=True):
        deadline = time.time() + 30
        while time.time() < deadline:
            assert self.proc.poll() is None, (self.tmp / "bridge.log").read_text()
            try:
                if requests.get(self.health_url, timeout=5).json()["kafka"]["connected"] or not await_kafka:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise AssertionError("the bridge did not come up:\n" + (self.tmp / "bridge.log").read_text()[-3000:])

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        self.proc.wait(30)
        self.log.close()

    health_url = f"http://127.0.0.1:{HEALTH_PORT}/health"

    def full_health(self):
        """The agent's whole health document: its spool, its Kafka connection, the bridge's part."""
        return requests.get(self.health_url, timeout=5).json()

    def health(self):
        return self.full_health()["pscheduler_bridge"]

    url = f"https://127.0.0.1:{HTTP_PORT}/pscheduler/results"
    ca = str(SECRETS / "ca.crt")

    def headers(self, token=None):
        """The HTTP archiver's _headers: its token, JSON."""
        return {"Authorization": f"Bearer {token or self.token}", "Content-Type": "application/json"}

    def post(self, msg, token=None):
        """One result posted as the HTTP archiver does (a connection of its own)."""
        return requests.post(
            self.url, data=json.dumps(msg), headers=self.headers(token), verify=self.ca, timeout=30
        )

    def wait(self, cond, what, timeout_s=60):
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            h = self.health()
            if cond(h):
                return h
            time.sleep(0.5)
        raise AssertionError(f"bridge: {what}; health {h}")
