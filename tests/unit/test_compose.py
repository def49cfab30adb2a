"""docker-compose.yml cannot run here (no Docker engine), so check what can be checked: it
parses, every mounted path and build context exists in the repo, service versions match the
native stack's and it mounts the same config files the native stack uses (its security:
test_compose_security.py). It is supervised like it: every long-running service restarts unless
stopped and has a health check, starts after what it needs is healthy, keeps its state on a named
volume; the job's checkpoints are where the keeper restores from, retained and restarted with the
native stack's settings."""

import pathlib
import re

import pytest
import stack_programs
import yaml
from compose_file import COMPOSE, ROOT, SERVICES, after, depends, host_paths, mounts


def native_versions():
    text = (ROOT / "scripts/stack/defaults.env").read_text()
    return dict(re.findall(r"(\w+_VERSION):=([0-9.]+)", text))


@pytest.mark.parametrize("service,path", list(host_paths()))
def test_every_mounted_path_exists(service, path):
    assert (ROOT / path).exists(), f"{service} mounts {path}, which is not in the repo"


def test_every_build_context_has_its_dockerfile():
    for name, svc in SERVICES.items():
        build = svc.get("build")
        if build is None:
            continue
        context = build if isinstance(build, str) else build.get("context", ".")
        dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
        assert (ROOT / context / dockerfile).is_file(), f"{name}: {context}/{dockerfile} missing"


@pytest.mark.parametrize(
    "service,key",
    [
        ("kafka", "LONGHAUL_KAFKA_VERSION"),
        ("jobmanager", "LONGHAUL_FLINK_VERSION"),
        ("taskmanager", "LONGHAUL_FLINK_VERSION"),
        ("influxdb", "LONGHAUL_INFLUXDB_VERSION"),
        ("telegraf", "LONGHAUL_TELEGRAF_VERSION"),
        ("alertmanager", "LONGHAUL_ALERTMANAGER_VERSION"),
    ],
)
def test_image_versions_match_the_native_stack(service, key):
    tag = SERVICES[service]["image"].split(":")[1].removeprefix("v")
    assert tag.startswith(native_versions()[key]), f"{service} {tag} != native {native_versions()[key]}"


def test_images_are_pinned():
    for name, svc in SERVICES.items():
        if "image" in svc:
            assert ":" in svc["image"] and not svc["image"].endswith(":latest"), name


def test_compose_uses_the_native_config_files():
    telegraf_mount = [v for v in SERVICES["telegraf"]["volumes"] if "telegraf.conf" in v]
    assert telegraf_mount and telegraf_mount[0].startswith("./ingest/telegraf/telegraf.conf")
    assert "ingest/telegraf/telegraf.conf" in (ROOT / "scripts/stack/telegraf.sh").read_text()
    setup = SERVICES["setup"]["volumes"]
    assert any(v.startswith("./ingest/topics.yaml") for v in setup)
    assert any(v.startswith("./ingest/influxdb/retention.yaml") for v in setup)


# --- supervision: restart, health, ordering, state -------------------------------------------


ONE_SHOTS = {d for s in SERVICES for d, c in depends(s).items() if c == "service_completed_successfully"}
LONG_RUNNING = sorted(set(SERVICES) - ONE_SHOTS)


@pytest.mark.parametrize("service", LONG_RUNNING)
def test_every_long_running_service_restarts_and_has_a_health_check(service):
    svc = SERVICES[service]
    assert svc.get("restart") == "unless-stopped", f"{service}: restart {svc.get('restart')}"
    check = svc.get("healthcheck", {})
    assert not check.get("disable") and check.get("test", [""])[0] in ("CMD", "CMD-SHELL"), (
        f"{service}: no health check"
    )
    assert len(check["test"]) > 1 and check.get("interval"), f"{service}: {check}"


@pytest.mark.parametrize("service", sorted(ONE_SHOTS))
def test_one_shots_are_not_restarted_once_done(service):
    assert SERVICES[service].get("restart", "no") in ("no", "on-failure"), service


def test_every_dependency_waits_for_health_or_completion():
    for service in SERVICES:
        for dep, condition in depends(service).items():
            want = "service_completed_successfully" if dep in ONE_SHOTS else "service_healthy"
            assert condition == want, f"{service} starts after {dep} is {condition}, not {want}"


@pytest.mark.parametrize(
    "first,then",
    [
        ("kafka", "jobmanager"),
        ("influxdb", "jobmanager"),
        ("jobmanager", "taskmanager"),
        ("kafka", "telegraf"),
        ("influxdb", "telegraf"),
        ("taskmanager", "job-keeper"),
        ("setup", "job-keeper"),
        ("jobmanager", "watchdog"),
        ("setup", "alert-bridge"),
        ("alertmanager", "alert-bridge"),
    ],
)
def test_start_order(first, then):
    assert first in after(then), f"{then} may start before {first}"


def test_every_daemon_of_the_native_stack_has_a_service():
    assert {"alertmanager", "alert-bridge"} <= set(stack_programs.deployed())
    for prog in stack_programs.deployed():
        prog = stack_programs.PORT_RELAYS.get(prog, prog)
        assert prog.removeprefix("flink-") in LONG_RUNNING, (
            f"scripts/stack supervises {prog}; compose has no such service"
        )
    for prog in stack_programs.LOCAL_ONLY:
        assert prog not in SERVICES, f"{prog} is the native stack's stand-in, not a deployment's"


FLINK_STATE = "/var/lib/longhaul/flink"


@pytest.mark.parametrize(
    "service,path",
    [
        ("kafka", "/var/lib/kafka/data"),
        ("influxdb", "/var/lib/influxdb"),
        ("jobmanager", FLINK_STATE),
        ("taskmanager", FLINK_STATE),
        ("job-keeper", FLINK_STATE),
        ("grafana", "/var/lib/grafana"),
        ("collector", "/var/lib/longhaul"),
        ("alertmanager", "/alertmanager"),
    ],
)
def test_state_is_on_a_named_volume(service, path):
    source = mounts(service).get(path, "")
    assert source in COMPOSE["volumes"], (
        f"{service}: {path} is on {source or 'no volume'}, not a named volume"
    )


def test_every_named_volume_is_declared_and_used():
    used = {src for s in SERVICES for src in mounts(s).values() if not src.startswith((".", "/", "$"))}
    assert used == set(COMPOSE["volumes"])


def flink_properties():
    return dict(line.split(": ", 1) for line in COMPOSE["x-flink-env"]["FLINK_PROPERTIES"].splitlines())


def test_the_job_checkpoints_on_the_volume_the_keeper_restores_from():
    props = flink_properties()
    assert props["execution.checkpointing.dir"] == f"file://{FLINK_STATE}/checkpoints"
    assert props["execution.checkpointing.savepoint-dir"] == f"file://{FLINK_STATE}/savepoints"
    assert len({mounts(s)[FLINK_STATE] for s in ("jobmanager", "taskmanager", "job-keeper")}) == 1
    keeper = SERVICES["job-keeper"]["command"]
    assert keeper[keeper.index("--state-dir") + 1] == FLINK_STATE


def native_flink_config(tmp_path):
    """The config.yaml scripts/stack/flink.sh writes (configure_flink) in a stack under tmp_path,
    over a stub of the distribution's own config."""
    home = pathlib.Path(stack_programs.stack("flink_home", tmp_path).strip())
    (home / "conf").mkdir(parents=True)
    (home / "conf/config.yaml").write_text("env:\n  java:\n    opts:\n      all: -Dstub\n")
    for name in ("log4j.properties", "logback.xml"):
        (home / "conf" / name).write_text("")
    stack_programs.stack("configure_flink", tmp_path)
    return yaml.safe_load((tmp_path / "run/flink/conf/config.yaml").read_text())


def test_the_job_keeps_its_state_and_restarts_as_on_the_native_stack(tmp_path):
    """The retention and restart keys scripts/stack/flink.sh writes, with the same values."""
    config = native_flink_config(tmp_path)

    def flat(tree, prefix=""):
        for key, value in tree.items():
            yield from (
                flat(value, f"{prefix}{key}.")
                if isinstance(value, dict)
                else [(f"{prefix}{key}", str(value))]
            )

    native = dict(flat(config))
    kept = {
        k: v
        for k, v in native.items()
        if k.startswith(("execution.checkpointing.", "restart-strategy.")) and not k.endswith("dir")
    }
    assert len(kept) >= 6, kept
    props = flink_properties()
    for key, value in kept.items():
        assert props.get(key) == value, f"compose {key}: {props.get(key)}, native {value}"


def test_flinks_rest_api_is_mutual_tls_as_on_the_native_stack(tmp_path):
    """The REST keys scripts/stack/flink.sh writes, with the same values but the keystore's path:
    the JobManager's mounted copy of secrets/flink-rest.p12. The keeper and the watchdog, its two
    clients, reach it over https with secrets/flink-rest.pem."""
    native = native_flink_config(tmp_path)["security"]["ssl"]["rest"]
    props = flink_properties()
    store = "/run/secrets/longhaul/flink-rest.p12"
    for key, value in native.items():
        want = store if key in ("keystore", "truststore") else str(value).lower()
        assert props.get(f"security.ssl.rest.{key}") == want, key
    assert native["authentication-enabled"] is True
    assert mounts("jobmanager")["/run/secrets/longhaul"] == "./secrets/flink"
    for name in ("job-keeper", "watchdog"):
        env = SERVICES[name]["environment"]
        assert env["LONGHAUL_FLINK"] == "https://jobmanager:8081", name
        cert = env["LONGHAUL_FLINK_CERT"]
        assert mounts(name)[cert.rsplit("/", 1)[0]].startswith("./secrets/"), name
    given = (ROOT / "scripts/secrets.sh").read_text()
    assert 'give "$d" flink 9999 kafka-flink.password flink-rest.p12' in given
    assert 'give "$d" job-keeper 9999 flink-rest.pem' in given


def test_flinks_internal_connections_are_mutual_tls_as_on_the_native_stack(tmp_path):
    """The internal keys scripts/stack/flink.sh writes, with the same values but the store's path:
    the flink services' mounted copy of secrets/flink-internal.p12, which no other service gets."""
    native = {
        k: v for k, v in native_flink_config(tmp_path).items() if k.startswith("security.ssl.internal.")
    }
    assert native["security.ssl.internal.enabled"] is True and len(native) == 6, native
    props = flink_properties()
    store = "/run/secrets/longhaul/flink-internal.p12"
    for key, value in native.items():
        want = store if key.endswith(("keystore", "truststore")) else str(value).lower()
        assert props.get(key) == want, key
    for name in ("jobmanager", "taskmanager"):
        assert mounts(name)["/run/secrets/longhaul"] == "./secrets/flink", name
    given = re.findall(
        r'^\s*give "\$d" ([\w-]+) \d+ (.*?)(?:#.*)?$', (ROOT / "scripts/secrets.sh").read_text(), re.M
    )
    holders = [who for who, files in given if "flink-internal.p12" in files.split()]
    assert holders == ["flink"], holders
