"""The systemd units of deploy/systemd as the tests read them: where they are, which there are,
a unit file parsed as systemd reads it, and a root as `deploy/systemd/install.sh files` leaves a
host (from a stand-in build: the same file names, stub contents)."""

import pathlib
import re
import shutil
import subprocess

import yaml
from stack_programs import ROOT, defaults, stack, stack_env

DEPLOY = ROOT / "deploy/systemd"
INSTALL = DEPLOY / "install.sh"
UNITS = sorted(
    p.name for p in [*DEPLOY.glob("*.service"), *DEPLOY.glob("*.socket"), *DEPLOY.glob("*.target")]
)
SERVICES = [u for u in UNITS if u.endswith(".service")]
# deploy/services.yaml, which the units are rendered from (deploy/gen): which run on hosts of their
# own (the agent, the pScheduler bridge), not in the central target, and which are JVMs
DESCRIBED = {
    f"longhaul-{s['name']}.service": s
    for s in yaml.safe_load((ROOT / "deploy/services.yaml").read_text())["services"]
}
HOST_UNITS = sorted(name for name, s in DESCRIBED.items() if s.get("host"))
JVMS = {name for name, s in DESCRIBED.items() if s.get("jvm")}
# a relay into another service's network namespace, by that service (both run as its user)
RELAYS = {
    name: f"longhaul-{s['joins_network_of']}.service"
    for name, s in DESCRIBED.items()
    if s.get("joins_network_of")
}
TARGET = "longhaul.target"


def parse(text):
    """A unit file as {section: [(key, value), ...]}, continuation lines joined as systemd does."""
    text = re.sub(r"\\\n", " ", text)
    out, section = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = out.setdefault(line.strip("[]"), [])
        else:
            key, _, value = line.partition("=")
            section.append((key.strip(), value.strip()))
    return out


def values(unit, section, key):
    return [v for k, v in unit.get(section, []) if k == key]


def words(unit, section, key):
    return [w for v in values(unit, section, key) for w in v.split()]


def unit(name):
    """The shipped unit file name, parsed."""
    return parse((DEPLOY / name).read_text())


def stub(path, executable=True):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" if executable else "stub\n")
    path.chmod(0o755 if executable else 0o644)


def fake_build(tmp):
    """bin/ as `make build` leaves it and a stack cache as `install.sh fetch` leaves it, with
    stubs; the cache's paths are asked from scripts/stack (kafka_home, ...)."""
    bin_dir, stack_dir = tmp / "bin", tmp / "stack"
    for name in ("longhaul", "longhaul-probe"):
        stub(bin_dir / name)
    stub(bin_dir / "longhaul-flink.jar", executable=False)
    homes = stack(
        "kafka_home && flink_home && influxdb_home && telegraf_home && alertmanager_home", stack_dir
    ).split()
    kafka, flink, influxdb, telegraf, alertmanager = map(pathlib.Path, homes)
    stub(kafka / "libs/kafka_2.13.jar", executable=False)
    for script in ("jobmanager.sh", "taskmanager.sh"):
        stub(flink / "bin" / script)
    stub(flink / "conf/config.yaml", executable=False)
    stub(influxdb / "influxd")
    stub(telegraf / "telegraf")
    stub(alertmanager / "alertmanager")
    return stack_env(stack_dir, LONGHAUL_BIN=str(bin_dir))


def make_root(tmp, *install_args):
    """A root as a host has it after `install.sh files ARGS`: the units, the programs, the host's
    system units and the OS packages the units run (JDK 17 at defaults.env's path, /bin/sh,
    systemd's own socket relay)."""
    root = tmp / "root"
    subprocess.run(
        ["bash", str(INSTALL), "files", *install_args, "--destdir", str(root)],
        check=True,
        capture_output=True,
        text=True,
        env=fake_build(tmp),
    )
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    stub(root / defaults()["LONGHAUL_JAVA_HOME"].lstrip("/") / "bin/java")
    stub(root / "bin/sh")
    stub(root / "usr/lib/systemd/systemd-socket-proxyd")
    return root


def install_users():
    """The system users deploy/systemd/install.sh creates: its SERVICE_USERS and the agent's."""
    text = INSTALL.read_text()
    listed = re.search(r"SERVICE_USERS=\(([^)]*)\)", text).group(1).split()
    return set(listed) | {u for u in re.findall(r"add_user (\S+)", text) if not u.startswith('"')}
