"""The agent's .deb on a clean Debian 12 booted with systemd, as a site installs it: `apt install`
pulls its dependencies, the config `longhaul admin add-agent` prints goes into /etc/longhaul,
`systemctl enable --now` starts it, and its samples reach the test stack's Kafka and InfluxDB.
Then an upgrade to a newer build while Kafka refuses the agent (samples wait in the spool): the
config, spool and cursor are kept and every spooled sample reaches Kafka exactly once; `apt
remove` keeps config and data, `apt purge` deletes them.

Runs on the default stack (scripts/test-all.sh install): Kafka, Telegraf and InfluxDB; the
machine shares the host's network, so the agent inside reaches Kafka on 127.0.0.1."""

import collections
import hashlib
import json
import pathlib
import re
import sys
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parents[2]
for lib in ("tests/lib", "ingest"):
    sys.path.insert(0, str(ROOT / lib))

import kafka  # noqa: E402
import nspawn  # noqa: E402
from longhaul_contract import CONTRACT  # noqa: E402
from operator_cli import SECRETS, free_port, longhaul  # noqa: E402

CONFIG = "/etc/longhaul/longhaul-probe.yaml"
SPOOL = "/var/lib/longhaul/spool"


def own_topic(role, name):
    """Where the agent named name writes role's samples: its own raw topic (contract own_topics)."""
    return CONTRACT.own_topic(CONTRACT.topic(role), "agent-" + name)


def agent_config(src, snippet, health_port):
    """The site's config: its name, the lines add-agent printed, a health port, two probes to itself."""
    return f"""src: {src}
{snippet}
health: {{listen: "127.0.0.1:{health_port}"}}
targets:
  - {{name: {src}-self, address: 127.0.0.1}}
probes:
  - {{id: path, kind: path, interval: 3s, jitter: 0s, params: {{queries: 1, max_ttl: 3, wait: 1s}}}}
  - {{id: rtt, kind: rtt, interval: 3s, jitter: 0s, params: {{count: 2, interval: 200ms, timeout: 1s}}}}
"""


class Samples:
    """Every record of the agent's own path and rtt topics whose src is ours, read as they come."""

    def __init__(self, src):
        self.src, self.seen = src, []
        self.path_topic = own_topic("raw.path", src)
        self.consumer = kafka.consumer(
            {"group.id": f"it-install-{uuid.uuid4().hex[:8]}", "auto.offset.reset": "earliest"}
        )
        self.consumer.subscribe([self.path_topic, own_topic("raw.rtt", src)])

    def poll(self, seconds):
        for msg in kafka.records(self.consumer, kafka.within(seconds)):
            sample = json.loads(msg.value())
            if sample.get("src") == self.src:
                self.seen.append((msg.topic(), sample))

    def wait(self, cond, what, timeout_s):
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            self.poll(1)
            if cond():
                return
        raise AssertionError(f"{what}: not within {timeout_s}s; {len(self.seen)} samples of {self.src}")

    def runs(self):
        return [s["run_id"] for _, s in self.seen]


def spooled_runs(machine):
    """run_ids of the records in the agent's spool files (the values are the samples' JSON): those
    waiting for Kafka, and acknowledged ones whose segment is not deleted yet."""
    out = machine.run(f'grep -aoh \'"run_id":"[^"]*"\' {SPOOL}/*.seg 2>/dev/null || true').stdout
    return set(re.findall(r'"run_id":"([^"]+)"', out))


def sha(machine, path):
    return hashlib.sha256(machine.run(["cat", path]).stdout.encode()).hexdigest()


def test_the_agent_installs_runs_upgrades_and_goes_as_a_package(dist, version, newer_deb, tmp_path):
    (first,) = dist.glob("longhaul-probe_*_amd64.deb")
    # the agent's name is its src: its Kafka user may publish that src's samples only
    name = src = f"inst-{uuid.uuid4().hex[:6]}.example.org"
    password = tmp_path / "agent.password"
    with nspawn.Machine(log_dir=tmp_path) as m:
        m.copy_in(first, "/root/first.deb")
        m.copy_in(newer_deb, "/root/newer.deb")
        t0 = time.time()
        m.run("apt-get update -q && apt-get install -y -q /root/first.deb", timeout=300)
        for dep in ("iperf3", "traceroute", "iputils-ping"):
            m.run(["dpkg", "-s", dep])
        assert m.run(["longhaul-probe", "--version"]).stdout.startswith(f"longhaul-probe {version} ")
        # nothing runs before the site configured it
        assert m.run(["systemctl", "is-enabled", "longhaul-probe"], check=False).stdout.strip() == "disabled"
        assert m.run(["systemctl", "is-active", "longhaul-probe"], check=False).stdout.strip() == "inactive"

        # the operator's side: a Kafka identity, and the lines to paste
        snippet = longhaul("admin", "add-agent", name, "--password-file", str(password))
        m.copy_in(password, "/etc/longhaul/kafka.password")
        m.copy_in(SECRETS / "ca.crt", "/etc/longhaul/ca.crt")
        m.run("chown longhaul-probe: /etc/longhaul/kafka.password && chmod 0600 /etc/longhaul/kafka.password")
        config = tmp_path / "longhaul-probe.yaml"
        health = f"127.0.0.1:{free_port()}"
        config.write_text(agent_config(src, snippet, health.split(":")[1]))

        def waiting_for_kafka():
            """The samples the agent has not had acknowledged, by its own /health (None while it
            does not answer)."""
            out = m.run(["longhaul-probe", "status", "--health", health, "--json"], check=False).stdout
            return json.loads(out)["spool"]["depth_samples"] if out.strip() else None

        m.copy_in(config, CONFIG)
        m.run(["longhaul-probe", "check", "--config", CONFIG])

        samples = Samples(src)
        m.run(["systemctl", "enable", "--now", "longhaul-probe"])
        samples.wait(
            lambda: any(t == samples.path_topic for t, _ in samples.seen), "a path sample in Kafka", 60
        )
        first_sample_s = time.time() - t0
        # (InfluxDB gets the traces the Flink job validated, longhaul.paths: that path, from an
        # agent's own topic, is test_own_topics.py's, on a stack running a job; this one runs none)
        print(f"install to first sample in Kafka: {first_sample_s:.1f}s")

        # Kafka refuses the agent: samples wait in the spool
        longhaul("admin", "remove-agent", name)
        deadline = time.time() + 90
        while (waiting_for_kafka() or 0) < 2 and time.time() < deadline:
            time.sleep(1)
        pending = waiting_for_kafka() or 0
        assert pending >= 2, f"the refused agent spooled {pending} samples in 90 s"
        in_spool = spooled_runs(m)
        conf_sum, cursor = sha(m, CONFIG), sha(m, f"{SPOOL}/acked")
        pid = m.run(["systemctl", "show", "-p", "MainPID", "--value", "longhaul-probe"]).stdout

        # the upgrade: restarts the running agent; config, spool and cursor kept
        m.run("apt-get install -y -q /root/newer.deb", timeout=300)
        assert m.run(["longhaul-probe", "--version"]).stdout.startswith(f"longhaul-probe {version}+upgrade ")
        assert sha(m, CONFIG) == conf_sum, "the upgrade changed the site's config"
        assert m.run(["systemctl", "is-active", "longhaul-probe"]).stdout.strip() == "active"
        assert m.run(["systemctl", "show", "-p", "MainPID", "--value", "longhaul-probe"]).stdout != pid, (
            "not restarted"
        )
        # still refused: what waited before the upgrade waits after it (and more as probes run)
        deadline = time.time() + 30
        while (after := waiting_for_kafka()) is None and time.time() < deadline:
            time.sleep(1)
        assert after >= pending, f"{pending} samples waited before the upgrade, {after} after it"
        assert sha(m, f"{SPOOL}/acked") == cursor, "the spool's cursor changed while Kafka took nothing"

        # Kafka takes the agent again: every spooled sample arrives, none twice
        longhaul("admin", "add-agent", name, "--password-file", str(password))
        samples.wait(lambda: in_spool <= set(samples.runs()), "the spooled samples in Kafka", 90)
        samples.poll(3)
        doubled = [r for r, n in collections.Counter(samples.runs()).items() if n > 1]
        assert not doubled, f"sent twice: {doubled}"

        # remove keeps config and data; purge deletes them
        m.run("apt-get remove -y -q longhaul-probe", timeout=120)
        assert m.run(["systemctl", "is-active", "longhaul-probe"], check=False).stdout.strip() != "active"
        m.run(f"test -e {CONFIG} && test -d {SPOOL} && ! test -e /usr/bin/longhaul-probe")
        m.run("apt-get purge -y -q longhaul-probe", timeout=120)
        m.run(f"! test -e {CONFIG} && ! test -e {SPOOL}")
    longhaul("admin", "remove-agent", name, "--delete-topics")
