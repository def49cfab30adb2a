"""A real `longhaul-probe run` on this host, as a site runs it against the test stack: its own
Kafka user (`agent-NAME`, password file given), its spool in the test's folder, its /health on a
port of its own, and the targets and probes a test gives as YAML."""

import os
import pathlib
import subprocess
import time

import requests
from operator_cli import SECRETS, free_port

ROOT = pathlib.Path(__file__).resolve().parents[2]


class LocalAgent:
    def __init__(self, tmp, name, password_file, mesh, schemas_dir=ROOT / "ingest" / "schemas"):
        """mesh: the config's `targets:` and `probes:` (YAML); schemas_dir: what the agent validates
        its samples against (a sample they refuse is a dead letter of its own)."""
        self.tmp, self.src = tmp, name
        self.health_url = f"http://127.0.0.1:{free_port()}/health"
        listen = self.health_url.removeprefix("http://").removesuffix("/health")
        (tmp / "agent.yaml").write_text(f"""src: {name}
kafka:
  bootstrap: [{os.environ["LONGHAUL_KAFKA"]}]
  security: sasl_ssl
  tls: {{ca_file: {SECRETS}/ca.crt}}
  sasl: {{user: agent-{name}, password_file: {password_file}}}
spool: {{dir: {tmp}/spool}}
health: {{listen: "{listen}"}}
schemas_dir: {schemas_dir}
{mesh}""")
        # the agent's identity is its config's: none of the tests' own Kafka settings
        env = {k: v for k, v in os.environ.items() if not k.startswith("LONGHAUL_KAFKA_")}
        self.log = open(tmp / "agent.log", "ab")
        self.proc = subprocess.Popen(
            [str(ROOT / "bin" / "longhaul-probe"), "run", "--config", str(tmp / "agent.yaml")],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
        )

    def health(self):
        return requests.get(self.health_url, timeout=5).json()

    def log_tail(self):
        return (self.tmp / "agent.log").read_text()[-3000:]

    def wait(self, cond, what, timeout_s=60):
        """The agent's /health once cond(health) holds; fails, with its log, if it exits or not
        within timeout_s."""
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            assert self.proc.poll() is None, self.log_tail()
            try:
                h = self.health()
                if cond(h):
                    return h
            except requests.RequestException:
                pass
            time.sleep(0.5)
        raise AssertionError(f"agent: {what} not within {timeout_s}s:\n" + self.log_tail())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()
