"""docker-compose.yml cannot run here (no Docker engine), so check what can be checked:
it parses, every mounted path and build context exists in the repo (or is made by the compose
secrets service, scripts/secrets.sh, which runs here), service versions match the native
stack's, it mounts the same config files the native stack uses, and it is secured like it: no
anonymous Grafana, no secret written in the file, Kafka's security keys those of the native
broker, the unauthenticated Flink UI on loopback only (Alertmanager and the alert bridge:
test_compose_alerting.py). It is supervised like it: every
long-running service restarts unless stopped and has a health check, starts after what it
needs is healthy, keeps its state on a named volume; the job's checkpoints are where the keeper
restores from, retained and restarted with the native stack's settings."""

import os
import pathlib
import re
import stat
import subprocess

import pytest
import stack_programs
import yaml
from conftest import make_secrets

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def native_versions():
    text = (ROOT / "scripts/stack/defaults.env").read_text()
    return dict(re.findall(r"(\w+_VERSION):=([0-9.]+)", text))


def host_paths(secrets=False):
    """The host paths services mount: the repo's, or (secrets=True) those under ./secrets."""
    for name, svc in SERVICES.items():
        for vol in svc.get("volumes", []):
            src = vol.split(":")[0]
            src = re.sub(r"\$\{[A-Z_]+:-(.*)\}", r"\1", src)  # ${VAR:-default} -> default
            if src.startswith(".") and (src.startswith("./secrets") == secrets):
                yield pytest.param(name, src, id=f"{name}:{src}")


@pytest.mark.parametrize("service,path", list(host_paths()))
def test_every_mounted_path_exists(service, path):
    assert (ROOT / path).exists(), f"{service} mounts {path}, which is not in the repo"


def after(service):
    """Every service that starts before service (depends_on, transitively)."""
    deps = SERVICES[service].get("depends_on", {})
    return set(deps).union(*(after(d) for d in deps)) if deps else set()


@pytest.mark.parametrize("service,path", [p for p in host_paths(secrets=True) if p.values[0] != "secrets"])
def test_every_mounted_secret_is_made_by_the_secrets_service(secrets, service, path):
    assert (secrets.parent / path).exists(), (
        f"{service} mounts {path}, which scripts/secrets.sh does not make"
    )
    assert "secrets" in after(service), f"{service} may start before the secrets service made {path}"


SUBFOLDERS = (
    "kafka",
    "influxdb",
    "telegraf",
    "grafana",
    "flink",
    "agent",
    "watchdog",
    "alertmanager",
    "alert-bridge",
)


def test_secrets_are_private_and_made_once(cli, secrets, tmp_path):
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o700
    for f in secrets.glob("*.password"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
        pw = f.read_bytes()
        assert len(pw) == 32 and pw.isalnum(), f"{f.name}: 32 letters and digits, no newline"
    for f in [*secrets.glob("*.pem"), secrets / "ca.key", secrets / "alertmanager-web.yml"]:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
    assert {p.name for p in secrets.iterdir() if p.is_dir()} == set(SUBFOLDERS)
    for sub in SUBFOLDERS:
        for f in (secrets / sub).iterdir():
            assert stat.S_IMODE(f.stat().st_mode) == 0o400, f"{sub}/{f.name}"
            assert f.read_bytes() == (secrets / f.name).read_bytes(), f"{sub}/{f.name} is not a copy"
    passwords = {f.name: f.read_bytes() for f in secrets.glob("*.password")}
    assert len(set(passwords.values())) == len(passwords), "two secrets share a password"
    make_secrets(cli, secrets)
    assert {f.name: f.read_bytes() for f in secrets.glob("*.password")} == passwords, (
        "a second run replaced a password"
    )


@pytest.mark.parametrize(
    "cert,host",
    [
        ("broker", "DNS:kafka"),
        ("influxdb", "DNS:influxdb"),
        ("admin", "DNS:localhost"),
        ("alertmanager", "DNS:alertmanager"),
    ],
)
def test_certificates_are_signed_by_the_ca_for_their_compose_host(secrets, cert, host):
    pem = secrets / f"{cert}.pem"
    subprocess.run(
        ["openssl", "verify", "-CAfile", str(secrets / "ca.crt"), str(pem)], check=True, capture_output=True
    )
    text = subprocess.run(
        ["openssl", "x509", "-in", str(pem), "-noout", "-subject", "-ext", "subjectAltName"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert re.search(rf"CN\s*=\s*{cert}\s*$", text.splitlines()[0]), text  # CN last: Kafka's principal
    assert host in text, text


SECRET_KEY = re.compile(r"PASSWORD|TOKEN|SECRET|_KEY$", re.I)


def environments():
    for name, svc in SERVICES.items():
        env = svc.get("environment", {})
        if isinstance(env, dict):
            yield name, env


def test_no_secret_is_written_in_compose():
    text = (ROOT / "docker-compose.yml").read_text()
    assert "INFLUX_TOKEN" not in text
    for name, env in environments():
        for key, value in env.items():
            if SECRET_KEY.search(key):
                assert key.endswith("_FILE"), f"{name}: {key} holds a secret itself; give a file (…_FILE)"
                assert str(value).startswith("/run/secrets/longhaul/"), (
                    f"{name}: {key}={value} is not a mounted secret"
                )
    # a password may reach a process only from its file, inside the container
    given = list(re.finditer(r"PASSWORD=\\?\"?(.{0,40})", text))
    assert len(given) == 3, "the InfluxDB admin's and Telegraf's two passwords, each from its file"
    for m in given:
        assert m.group(1).startswith("$$(cat /run/secrets/longhaul/"), m.group(0)


def test_grafana_takes_no_anonymous_user_and_its_admin_password_from_a_file():
    env = SERVICES["grafana"]["environment"]
    assert env["GF_AUTH_ANONYMOUS_ENABLED"] == "false"
    assert "GF_SECURITY_ADMIN_PASSWORD" not in env
    assert env["GF_SECURITY_ADMIN_PASSWORD__FILE"].startswith("/run/secrets/longhaul/")
    assert env["GF_USERS_ALLOW_SIGN_UP"] == "false"


def test_the_grafana_datasource_is_the_reader_over_https():
    ds = yaml.safe_load((ROOT / "dashboards/provisioning/datasources/influxdb.yaml").read_text())[
        "datasources"
    ][0]
    env = SERVICES["grafana"]["environment"]
    assert ds["user"] == "$INFLUX_USER" and env["INFLUX_USER"] == "reader"
    assert env["INFLUX_URL"].startswith("https://")
    assert ds["secureJsonData"]["password"] == "$__file{/run/secrets/longhaul/influx-reader.password}"
    assert ds["jsonData"]["tlsAuthWithCACert"] is True
    mounts = dict(v.split(":")[:2] for v in SERVICES["grafana"]["volumes"])
    assert mounts["./secrets/grafana"] == "/run/secrets/longhaul"


def test_influxdb_and_telegraf_authenticate():
    influx = SERVICES["influxdb"]["environment"]
    assert influx["INFLUXDB_HTTP_AUTH_ENABLED"] == "true" and influx["INFLUXDB_HTTP_HTTPS_ENABLED"] == "true"
    assert influx["INFLUXDB_ADMIN_USER"] == "admin"
    telegraf = SERVICES["telegraf"]["environment"]
    assert telegraf["LONGHAUL_INFLUX_USER"] == "writer" and telegraf["LONGHAUL_INFLUX"].startswith("https://")
    assert "--users-from" in " ".join(SERVICES["setup"]["entrypoint"])


def test_unauthenticated_ports_are_on_loopback_only():
    for name in ("jobmanager", "influxdb", "alertmanager"):
        for port in SERVICES[name].get("ports", []):
            assert port.startswith("127.0.0.1:"), f"{name} publishes {port} beyond this host"
    assert "ports" not in SERVICES["kafka"]


def native_kafka_security():
    """The native broker's security keys, as scripts/stack/kafka.sh writes them (secured mode)."""
    script = ". scripts/stack/lib.sh && load_services && kafka_listeners"
    env = {
        **os.environ,
        "LONGHAUL_KAFKA_SECURITY": "sasl_ssl",
        "LONGHAUL_STACK_DIR": "/nonexistent-stack",
        "LONGHAUL_SECRETS_DIR": "/dev/null/secrets",
        "LONGHAUL_KAFKA_TEST_SUPER_USER": "",  # what install.sh writes: the tests' own is theirs
    }
    out = subprocess.run(
        ["bash", "-c", script.replace("kafka_listeners", "secrets_dir() { echo /S; }; kafka_listeners")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line and not line.startswith("#"))


def test_compose_kafka_has_the_native_brokers_security():
    props = dict(
        line.split("=", 1)
        for line in (ROOT / "compose/kafka/server.properties").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    for key, value in native_kafka_security().items():
        if key in ("listeners", "advertised.listeners"):
            names = lambda v: [x.split("://")[0] for x in v.split(",")]  # noqa: E731
            assert names(props[key]) == names(value), key
        elif key.startswith("ssl.") and key.endswith(".location"):
            assert props[key].rsplit("/", 1)[1] == value.rsplit("/", 1)[1], key
        else:
            assert props.get(key) == value, (
                f"compose/kafka/server.properties {key}={props.get(key)}, native {value}"
            )


def test_no_password_is_a_super_user_and_a_certificate_is_its_whole_subject():
    """The super users are the admin and broker certificates by their full subject, which no SCRAM
    user name can equal; the archiver listener maps a pScheduler host's certificate to its CN and
    any other (the admin's too) to a principal without a right."""
    props = native_kafka_security()
    assert props["super.users"] == "User:CN=admin,O=Longhaul;User:CN=broker,O=Longhaul"
    assert props["ssl.principal.mapping.rules"] == "DEFAULT"
    rules = props["listener.name.archiver.ssl.principal.mapping.rules"]
    assert rules.startswith("RULE:^CN=(pscheduler(-[a-z0-9._-]+)?),O=Longhaul$/$1/,") and rules.endswith(
        "RULE:^.*$/not-an-archiver/"
    )


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


def depends(service):
    """{dependency: its condition} (None for the short list form, which waits for nothing)."""
    deps = SERVICES[service].get("depends_on", {})
    return dict.fromkeys(deps) if isinstance(deps, list) else {d: c.get("condition") for d, c in deps.items()}


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
        assert prog.removeprefix("flink-") in LONG_RUNNING, (
            f"scripts/stack supervises {prog}; compose has no such service"
        )
    for prog in stack_programs.LOCAL_ONLY:
        assert prog not in SERVICES, f"{prog} is the native stack's stand-in, not a deployment's"


def mounts(service):
    """{container path: source} of a service's volumes."""
    return {v.split(":")[1]: v.split(":")[0] for v in SERVICES[service].get("volumes", [])}


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


def test_the_job_keeps_its_state_and_restarts_as_on_the_native_stack(tmp_path):
    """The retention and restart keys scripts/stack/flink.sh writes, with the same values."""
    home = pathlib.Path(stack_programs.stack("flink_home", tmp_path).strip())
    (home / "conf").mkdir(parents=True)
    (home / "conf/config.yaml").write_text("env:\n  java:\n    opts:\n      all: -Dstub\n")
    for name in ("log4j.properties", "logback.xml"):
        (home / "conf" / name).write_text("")
    stack_programs.stack("configure_flink", tmp_path)

    def flat(tree, prefix=""):
        for key, value in tree.items():
            yield from (
                flat(value, f"{prefix}{key}.")
                if isinstance(value, dict)
                else [(f"{prefix}{key}", str(value))]
            )

    native = dict(flat(yaml.safe_load((tmp_path / "run/flink/conf/config.yaml").read_text())))
    kept = {
        k: v
        for k, v in native.items()
        if k.startswith(("execution.checkpointing.", "restart-strategy.")) and not k.endswith("dir")
    }
    assert len(kept) >= 6, kept
    props = flink_properties()
    for key, value in kept.items():
        assert props.get(key) == value, f"compose {key}: {props.get(key)}, native {value}"


# --- the secret files each service reads ---------------------------------------------------------


def host_path(service, container_path):
    """The host path (under the repo or ./secrets) a service sees at container_path, via its binds."""
    for target, source in sorted(mounts(service).items(), key=lambda m: -len(m[0])):
        if source.startswith(".") and (container_path == target or container_path.startswith(target + "/")):
            return source + container_path[len(target) :]
    raise AssertionError(f"{service} mounts nothing at {container_path}")


def in_secrets(secrets, service, container_path):
    """The file a service reads at container_path, in the fixture's ./secrets."""
    path = host_path(service, container_path)
    assert path.startswith("./secrets"), f"{service}: {container_path} is {path}, not a secret"
    return secrets.parent / path


def test_every_secret_file_a_service_is_given_exists(secrets):
    """Each …_FILE setting and __FILE of the environments names a file the secrets service makes
    in that service's own subfolder."""
    named = 0
    for name, env in environments():
        for key, value in env.items():
            if key.endswith("_FILE") and str(value).startswith("/run/secrets/longhaul/"):
                assert in_secrets(secrets, name, value).is_file(), f"{name}: {key}={value} is not made"
                named += 1
    assert named >= 7
