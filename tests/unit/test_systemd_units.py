"""The systemd units of deploy/systemd, checked without booting them.

`systemd-analyze verify` runs on a root that holds what `deploy/systemd/install.sh files` installs
(from a stand-in build: the same file names, stub contents), the host's own system units and the
OS prerequisites the units name (JDK 17 where defaults.env says, /bin/sh). verify only warns on a
misspelt key or a bad value (exit 0), fails only on a missing executable or a missing Requires=,
and is silent on a missing Wants=/After=/PartOf= unit: so any output at all fails, and this file
adds what verify does not see (units named but not shipped, /opt/longhaul paths not installed,
the supervision settings every unit must carry, users install.sh does not create). The corruption
cases prove each check fails on a broken copy of a unit. Every daemon scripts/stack supervises
has a unit running its command, but the local notification sink (stack_programs.LOCAL_ONLY); the
alert bridge's identities and the secrets units read are checked against install.sh.
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess

import pytest
from stack_programs import LOCAL_ONLY, ROOT, defaults, deployed, stack, stack_env

DEPLOY = ROOT / "deploy/systemd"
INSTALL = DEPLOY / "install.sh"
UNITS = sorted(p.name for p in [*DEPLOY.glob("*.service"), *DEPLOY.glob("*.target")])
SERVICES = [u for u in UNITS if u.endswith(".service")]
AGENT = "longhaul-probe.service"
PSBRIDGE = "longhaul-psbridge.service"  # the agent as pScheduler bridge: any host, not the central target
HOST_UNITS = [AGENT, PSBRIDGE]
TARGET = "longhaul.target"

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
    system units and the OS packages the units run (JDK 17 at defaults.env's path, /bin/sh)."""
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
    return root


@pytest.fixture(scope="module")
def central_root(tmp_path_factory):
    return make_root(tmp_path_factory.mktemp("central"))


def installed_units(root):
    return sorted(
        p.name for p in (root / "etc/systemd/system").iterdir() if p.suffix in (".service", ".target")
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
    creates = set(re.findall(r"add_user (\S+)", INSTALL.read_text()))
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
JVMS = {"longhaul-kafka.service", "longhaul-flink-jobmanager.service", "longhaul-flink-taskmanager.service"}


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


def unit(name):
    return parse((DEPLOY / name).read_text())


def test_every_daemon_the_stack_supervises_has_a_unit():
    daemons = deployed()
    assert {
        "kafka",
        "influxdb",
        "flink-jobmanager",
        "flink-taskmanager",
        "telegraf",
        "alertmanager",
        "alert-bridge",
    } <= set(daemons)
    for prog in daemons:
        assert f"longhaul-{prog}.service" in SERVICES, (
            f"scripts/stack supervises {prog}: no deploy/systemd/longhaul-{prog}.service"
        )
    for prog in LOCAL_ONLY:
        assert f"longhaul-{prog}.service" not in UNITS, (
            f"{prog} is the native stack's stand-in: a real host has none"
        )


@pytest.mark.parametrize("prog", sorted(deployed()))
def test_a_unit_runs_what_the_stack_runs(prog):
    """Every literal word of the stack's command (options, class names, heap, job name) is in the
    unit's ExecStart: the two supervisors run one command, paths apart."""
    exec_start = " ".join(values(unit(f"longhaul-{prog}.service"), "Service", "ExecStart"))
    for word in deployed()[prog]:
        if "$" not in word:
            assert re.search(rf"(^|[\s\"']){re.escape(word)}($|[\s\"'])", exec_start), (
                f"scripts/stack runs {prog} with {word!r}; its unit does not"
            )


def test_the_target_groups_every_central_service_and_nothing_else():
    central = [s for s in SERVICES if s not in HOST_UNITS]
    assert sorted(words(unit(TARGET), "Unit", "Wants")) == central
    assert not words(unit(TARGET), "Unit", "Requires"), "Requires=: stopping the keeper would stop the target"
    for name in central:
        assert values(unit(name), "Unit", "PartOf") == [TARGET], name
    for name in HOST_UNITS:
        assert not values(unit(name), "Unit", "PartOf"), (
            f"{name} runs on hosts of its own, not in the central target"
        )


@pytest.mark.parametrize(
    "name,first",
    [
        ("longhaul-flink-jobmanager.service", ["longhaul-kafka.service", "longhaul-influxdb.service"]),
        (
            "longhaul-flink-taskmanager.service",
            ["longhaul-kafka.service", "longhaul-influxdb.service", "longhaul-flink-jobmanager.service"],
        ),
        ("longhaul-telegraf.service", ["longhaul-kafka.service", "longhaul-influxdb.service"]),
        (
            "longhaul-job-keeper.service",
            ["longhaul-flink-jobmanager.service", "longhaul-flink-taskmanager.service"],
        ),
        ("longhaul-alert-bridge.service", ["longhaul-kafka.service", "longhaul-alertmanager.service"]),
    ],
)
def test_start_order(name, first):
    after = words(unit(name), "Unit", "After")
    assert set(first) <= set(after), f"{name} starts after {after}, not after all of {first}"


def megabytes(size):
    number, suffix = re.fullmatch(r"(\d+)([KMG]?)", size.upper().rstrip("B")).groups()
    return int(number) * {"K": 1 / 1024, "": 1 / 2**20, "M": 1, "G": 1024}[suffix]


@pytest.mark.parametrize(
    "name,setting",
    [
        ("longhaul-flink-jobmanager.service", "LONGHAUL_FLINK_JM_PROCESS_SIZE"),
        ("longhaul-flink-taskmanager.service", "LONGHAUL_FLINK_TM_PROCESS_SIZE"),
        ("longhaul-kafka.service", "LONGHAUL_KAFKA_HEAP_OPTS"),
    ],
)
def test_memory_limits_leave_room_above_the_jvm_sizes(name, setting):
    size = defaults()[setting]
    jvm = megabytes(re.search(r"-Xmx(\S+)", size).group(1) if "-Xmx" in size else size)
    limit = megabytes(values(unit(name), "Service", "MemoryMax")[0])
    assert limit >= 1.2 * jvm, f"{name}: MemoryMax {limit:.0f} MB for a JVM of {jvm:.0f} MB ({setting})"


def test_no_unit_holds_a_secret():
    for name in UNITS:
        for key, value in unit(name).get("Service", []):
            if key == "Environment":
                for var in shlex.split(value):
                    k, _, v = var.partition("=")
                    if re.search(r"PASSWORD|TOKEN|SECRET", k):
                        assert k.endswith("_FILE") and v.startswith(("/etc/longhaul/secrets/", "%d/")), (
                            f"{name}: {var} is not a secret's file"
                        )
            if key == "LoadCredential":
                assert value.split(":", 1)[1].startswith("/etc/longhaul/secrets/"), f"{name}: {value}"


def environment(name):
    return dict(
        var.partition("=")[::2]
        for v in values(unit(name), "Service", "Environment")
        for var in shlex.split(v)
    )


def test_the_alert_bridge_is_kafkas_alerter_and_alertmanagers_bridge():
    env = environment("longhaul-alert-bridge.service")
    assert env["LONGHAUL_KAFKA_USER"] == "alerter"
    assert env["LONGHAUL_KAFKA_PASSWORD_FILE"] == "/etc/longhaul/secrets/kafka-alerter.password"
    assert env["LONGHAUL_ALERTMANAGER_USER"] == "bridge"
    assert env["LONGHAUL_ALERTMANAGER_PASSWORD_FILE"] == "/etc/longhaul/secrets/alertmanager-bridge.password"
    assert values(unit("longhaul-alert-bridge.service"), "Service", "EnvironmentFile") == [
        "/etc/longhaul/longhaul.env"
    ]
    # where Alertmanager is and the CA it is signed by: longhaul.env, as for Kafka and InfluxDB
    assert re.search(r"LONGHAUL_ALERTMANAGER LONGHAUL_ALERTMANAGER_CA", INSTALL.read_text())


def test_every_secret_a_unit_names_is_readable_by_its_group():
    """The secrets a unit's settings name are among those install.sh central makes readable by
    the group longhaul (so are those its configs name: Alertmanager's certificate and key, in the
    web.yml it writes); people's Alertmanager login (operator) and the admins' stay root's."""
    named = {"alertmanager.crt", "alertmanager.key"}
    for name in SERVICES:
        settings = " ".join(v for section in unit(name).values() for _, v in section)
        named |= set(re.findall(r"/etc/longhaul/secrets/([\w.-]+)", settings))
    assert {"kafka-alerter.password", "alertmanager-bridge.password"} <= named
    readable = set(re.search(r"readable=\(([^)]*)\)", INSTALL.read_text()).group(1).split())
    assert named <= readable, f"units name {sorted(named - readable)}, which install.sh leaves root's"
    assert (
        not {
            "alertmanager-operator.password",
            "alertmanager-grafana.password",
            "ca.key",
            "admin.pem",
            "kafka-admin.password",
            "influx-admin.password",
        }
        & readable
    )
