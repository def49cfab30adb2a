"""The systemd units against the native stack, read without booting them: every daemon
scripts/stack supervises has a unit running its command, but the local notification sink
(stack_programs.LOCAL_ONLY); the start order, memory limits above the JVM sizes; no secret in a
unit. (Who each unit runs as and the secrets it gets: test_systemd_identities.py; the units as
installed, verified and sandboxed: test_systemd_install.py. The units are rendered from
deploy/services.yaml: what the target wants and each unit's sandbox are deploy/gen's tests.)
"""

import re
import shlex

import pytest
from stack_programs import LOCAL_ONLY, defaults, deployed
from systemd_unit_files import SERVICES, UNITS, unit, values, words


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
