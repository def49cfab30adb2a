"""The systemd units as a host gets them, checked without booting them.

`systemd-analyze verify` runs on a root that holds what `deploy/systemd/install.sh files` installs
(from a stand-in build: the same file names, stub contents), the host's own system units and the
OS prerequisites the units name (JDK 17 where defaults.env says, /bin/sh). verify only warns on a
misspelt key or a bad value (exit 0), fails only on a missing executable or a missing Requires=,
and is silent on a missing Wants=/After=/PartOf= unit: so any output at all fails, and this file
adds what verify does not see (units named but not shipped, /opt/longhaul paths not installed,
the supervision settings every unit must carry, users install.sh does not create). The corruption
cases prove each check fails on a broken copy of a unit. Each unit's sandbox is systemd's own
measure (`systemd-analyze security`).
"""

import os
import re
import shutil
import subprocess

import pytest
from systemd_unit_files import (
    DEPLOY,
    HOST_UNITS,
    JVMS,
    SERVICES,
    UNITS,
    install_users,
    make_root,
    parse,
    values,
    words,
)

# What every daemon runs under (the supervision settings; docs: deploy/systemd/README.md).
SUPERVISION = {
    "Type": "simple",
    "Restart": "always",
    "RestartSec": "2",
    "SuccessExitStatus": "143",
    "TimeoutStopSec": "40",
    "KillMode": "control-group",
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
}
DEPENDENCY_KEYS = (
    "Wants",
    "Requires",
    "Requisite",
    "BindsTo",
    "PartOf",
    "After",
    "Before",
    "WantedBy",
    "RequiredBy",
    "Upholds",
    "Conflicts",
    "OnFailure",
)


@pytest.fixture(scope="module")
def central_root(tmp_path_factory):
    return make_root(tmp_path_factory.mktemp("central"))


def installed_units(root):
    return sorted(
        p.name
        for p in (root / "etc/systemd/system").iterdir()
        if p.suffix in (".service", ".socket", ".target")
    )


def problems(root):
    """Everything wrong with the units installed under root, one line each; [] when sound."""
    names = installed_units(root)
    run = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "--man=no", "--generators=no", *names],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = [f"verify: {line}" for line in (run.stdout + run.stderr).splitlines()]
    if run.returncode != 0:
        found.append(f"verify: exit status {run.returncode}")
    known = set(os.listdir(root / "usr/lib/systemd/system")) | set(names)
    creates = install_users()
    for name in names:
        unit = parse((root / "etc/systemd/system" / name).read_text())
        for key in DEPENDENCY_KEYS:
            for dep in words(unit, "Unit", key) + words(unit, "Install", key):
                if dep not in known:
                    found.append(f"{name}: {key}={dep}, a unit neither shipped nor the system's")
        for path in re.findall(
            r"/(?:opt/longhaul|usr/share/longhaul|usr/bin/longhaul)[^\s'\"*]*",
            "\n".join(v for s in unit.values() for _, v in s),
        ):
            if not (root / path.lstrip("/")).exists():
                found.append(f"{name}: names {path}, which install.sh does not install")
        if not name.endswith(".service"):
            continue
        for key, want in SUPERVISION.items():
            if values(unit, "Service", key) != [want]:
                found.append(f"{name}: {key}={values(unit, 'Service', key)}, want {want}")
        if values(unit, "Unit", "StartLimitIntervalSec") != ["0"]:
            found.append(
                f"{name}: StartLimitIntervalSec=0 missing (a daemon waiting for Kafka must never be given up)"
            )
        if not values(unit, "Service", "MemoryMax"):
            found.append(f"{name}: no MemoryMax")
        user = values(unit, "Service", "User")
        if len(user) != 1 or user[0] not in creates:
            found.append(f"{name}: User={user}, not a user install.sh creates ({sorted(creates)})")
    return found


def test_the_installed_units_verify_without_a_word(central_root):
    assert installed_units(central_root) == UNITS
    assert problems(central_root) == []


# systemd's own measure of a unit's sandbox (0 to 10, lower is tighter): a JVM may not forbid
# writable-then-executable memory nor filter system calls (its JIT), every other daemon does both.
@pytest.mark.parametrize("name", SERVICES)
def test_every_unit_is_sandboxed_as_tightly_as_its_daemon_allows(name):
    limit = 3.2 if name in JVMS else 2.0
    r = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", f"--threshold={limit * 10:.0f}", str(DEPLOY / name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    exposure = re.search(r"Overall exposure level for \S+: ([0-9.]+)", r.stdout)
    assert exposure, r.stdout + r.stderr
    assert float(exposure[1]) <= limit and r.returncode == 0, (
        f"{name}: exposure {exposure[1]} above {limit}: "
        + "; ".join(line.split("  ")[0] for line in r.stdout.splitlines() if line.startswith("✗"))
    )


def test_an_agent_host_gets_the_agent_alone_and_it_verifies(tmp_path):
    root = make_root(tmp_path, "--agent")
    assert installed_units(root) == HOST_UNITS
    assert problems(root) == []


def set_line(old, new):
    def edit(text):
        assert old in text, f"the corruption case's line {old!r} is not in the unit any more"
        return text.replace(old, new, 1)

    return edit


CORRUPTIONS = {
    "misspelt key": (
        "longhaul-kafka.service",
        set_line("Restart=always", "Restart=always\nRestrat=always"),
        "Unknown key 'Restrat'",
    ),
    "bad value": (
        "longhaul-telegraf.service",
        set_line("Restart=always", "Restart=alwayz"),
        "Failed to parse service restart specifier",
    ),
    "bad memory size": (
        "longhaul-influxdb.service",
        set_line("MemoryMax=2G", "MemoryMax=2GB"),
        "Invalid memory limit '2GB'",
    ),
    "missing dependency (Wants)": (
        "longhaul-flink-taskmanager.service",
        set_line("longhaul-flink-jobmanager.service", "longhaul-flink-jobmanger.service"),
        "Wants=longhaul-flink-jobmanger.service, a unit neither shipped",
    ),
    "missing dependency (Requires)": (
        "longhaul-telegraf.service",
        set_line("[Service]", "Requires=longhaul-kafak.service\n[Service]"),
        "Unit longhaul-kafak.service not found",
    ),
    "missing target (PartOf)": (
        "longhaul-job-keeper.service",
        set_line("PartOf=longhaul.target", "PartOf=longhaul-stack.target"),
        "PartOf=longhaul-stack.target, a unit neither shipped",
    ),
    "missing executable": (
        "longhaul-job-keeper.service",
        set_line("/usr/bin/longhaul ", "/usr/bin/longhual "),
        "Command /usr/bin/longhual is not executable",
    ),
    "program under sh -c not installed": (
        "longhaul-telegraf.service",
        set_line("/bin/telegraf ", "/bin/telegraf2 "),
        "names /opt/longhaul/bin/telegraf2",
    ),
    "supervision setting dropped": (
        "longhaul-watchdog.service",
        set_line("KillMode=control-group\n", ""),
        "KillMode=[], want control-group",
    ),
    "user nobody creates": (
        "longhaul-probe.service",
        set_line("User=longhaul-probe", "User=probe"),
        "User=['probe']",
    ),
    "bridge wants a misspelt Alertmanager": (
        "longhaul-alert-bridge.service",
        set_line("longhaul-alertmanager.service", "longhaul-alertmanger.service"),
        "Wants=longhaul-alertmanger.service, a unit neither shipped",
    ),
    "Alertmanager not installed": (
        "longhaul-alertmanager.service",
        set_line("/bin/alertmanager ", "/bin/alertmanager2 "),
        "Command /opt/longhaul/bin/alertmanager2 is not executable",
    ),
}


@pytest.mark.parametrize("case", CORRUPTIONS)
def test_a_corrupted_unit_is_caught(central_root, tmp_path, case):
    name, edit, expected = CORRUPTIONS[case]
    root = tmp_path / "root"
    shutil.copytree(central_root, root, symlinks=True)
    unit = root / "etc/systemd/system" / name
    unit.write_text(edit(unit.read_text()))
    found = problems(root)
    assert any(expected in line for line in found), f"{case}: {expected!r} not in {found}"
