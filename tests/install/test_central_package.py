"""The central .deb on a clean Debian 12 booted with systemd: each daemon runs as a user of its
own and gets its own secrets alone, as systemd credentials (LoadCredential=), from a secrets
folder that is root's. Started so, the watchdog reads the test stack's Kafka and InfluxDB and the
alert bridge catches up with the events topic: each found its password where its unit put it,
and none can read another's.

Runs on the default stack (scripts/test-all.sh install); the machine shares the host's network."""

import json
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/lib"))

import nspawn  # noqa: E402
from operator_cli import SECRETS  # noqa: E402

FOLDER = "/etc/longhaul/secrets"
# each daemon of the package: its user and the secrets its unit loads
DAEMONS = {
    "longhaul-watchdog": (
        "longhaul-watchdog",
        ["kafka-watchdog.password", "influx-reader.password", "flink-rest.pem"],
    ),
    "longhaul-alert-bridge": ("longhaul-bridge", ["kafka-alerter.password", "alertmanager-bridge.password"]),
}
# where the test stack is, when it is not where the package's longhaul.env says
ADDRESSES = ("LONGHAUL_KAFKA", "LONGHAUL_INFLUX", "LONGHAUL_ALERTMANAGER", "LONGHAUL_FLINK")


def status(m, path):
    out = m.run(["cat", path], check=False).stdout
    return json.loads(out) if out.strip() else None


def wait_for(what, cond, timeout_s, why):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(1)
    raise AssertionError(f"{what}: not within {timeout_s} s; {why()}")


def test_each_daemon_runs_as_its_own_user_with_its_own_secrets_alone(dist, tmp_path):
    (deb,) = dist.glob("longhaul_*_amd64.deb")
    with nspawn.Machine(log_dir=tmp_path) as m:
        m.copy_in(deb, "/root/longhaul.deb")
        m.run("apt-get update -q && apt-get install -y -q /root/longhaul.deb", timeout=300)
        for user in ("longhaul-flink", "longhaul-watchdog", "longhaul-bridge"):
            entry = m.run(["getent", "passwd", user]).stdout.strip().split(":")
            assert entry[-1] == "/usr/sbin/nologin" and int(entry[2]) < 1000, entry

        # the site's secrets: root's alone, but the CA's certificate
        m.run(f"install -d -o root -g root -m 0711 {FOLDER}")
        for _, names in DAEMONS.values():
            for name in names:
                m.copy_in(SECRETS / name, f"{FOLDER}/{name}")
        m.copy_in(SECRETS / "ca.crt", f"{FOLDER}/ca.crt")
        m.run(f"chown root:root {FOLDER}/* && chmod 0600 {FOLDER}/* && chmod 0644 {FOLDER}/ca.crt")
        here = [f"{k}={os.environ[k]}" for k in ADDRESSES if os.environ.get(k)]
        m.run(["sh", "-c", 'printf "%s\\n" "$@" >> /etc/longhaul/longhaul.env', "_", *here])

        m.run(["systemctl", "start", *DAEMONS])
        watchdog = "/var/lib/longhaul/watchdog/status.json"

        def watchdog_read_the_stack():
            """Its status once it has read Kafka's consumer groups (as the Kafka user watchdog),
            InfluxDB (as reader) and Flink's REST API (mutual TLS) without an error: both
            passwords and the REST certificate came from its credentials."""
            st = status(m, watchdog) or {}
            by = {c["component"].split("/")[0]: c for c in st.get("components", [])}
            influx, job = by.get("influxdb_writes", {}), by.get("flink_job", {})
            ok = (
                "consumer_lag" in by
                and influx
                and "error" not in influx.get("evidence", {})
                and job
                and "error" not in job.get("evidence", {})
            )
            return st if ok and not st.get("errors") else None

        wait_for(
            "the watchdog's status with Kafka's lag and InfluxDB's writes, without errors",
            watchdog_read_the_stack,
            90,
            lambda: (
                f"{status(m, watchdog)}; {m.run('journalctl -u longhaul-watchdog -n 20 --no-pager', check=False).stdout}"
            ),
        )
        bridge = "/var/lib/longhaul/bridge/status.json"
        wait_for(
            "the alert bridge caught up with the events topic",
            lambda: (status(m, bridge) or {}).get("caught_up"),
            90,
            lambda: (
                f"{status(m, bridge)}; {m.run('journalctl -u longhaul-alert-bridge -n 20 --no-pager', check=False).stdout}"
            ),
        )

        for unit, (user, names) in DAEMONS.items():
            pid = m.run(["systemctl", "show", "-p", "MainPID", "--value", unit]).stdout.strip()
            assert m.run(["stat", "-c", "%U", f"/proc/{pid}"]).stdout.strip() == user, (
                unit
            )  # its owner: the euid
            creds = f"/run/credentials/{unit}.service"
            for name in names:
                # its own credential it reads; the file it came from it cannot
                m.run(["runuser", "-u", user, "--", "cat", f"{creds}/{name}"])
                denied = m.run(["runuser", "-u", user, "--", "cat", f"{FOLDER}/{name}"], check=False)
                assert denied.returncode != 0 and "Permission denied" in denied.stderr, (unit, name)
            for other, (other_user, _) in DAEMONS.items():
                if other != unit:
                    # nor another daemon's credentials
                    peek = m.run(["runuser", "-u", other_user, "--", "ls", creds], check=False)
                    assert peek.returncode != 0 and "Permission denied" in peek.stderr, (other, unit)
            m.run(["runuser", "-u", user, "--", "cat", f"{FOLDER}/ca.crt"])
            listing = m.run(["runuser", "-u", user, "--", "ls", FOLDER], check=False)
            assert listing.returncode != 0, f"{user} lists the secrets folder"
