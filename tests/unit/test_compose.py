"""docker-compose.yml cannot run here (no Docker engine), so check what can be checked:
it parses, every mounted path and build context exists in the repo (or is made by the compose
secrets service, scripts/secrets.sh, which runs here), service versions match the native
stack's, it mounts the same config files the native stack uses, and it is secured like it: no
anonymous Grafana, no secret written in the file, Kafka's security keys those of the native
broker, the unauthenticated Flink UI on loopback only."""
import os
import pathlib
import re
import stat
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def native_versions():
    text = (ROOT / "scripts/stack/defaults.env").read_text()
    return dict(re.findall(r'(\w+_VERSION):=([0-9.]+)', text))


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


@pytest.fixture(scope="module")
def secrets(tmp_path_factory):
    """./secrets as the compose `secrets` service makes it (scripts/secrets.sh), made twice."""
    d = tmp_path_factory.mktemp("compose") / "secrets"
    for _ in range(2):
        subprocess.run(["bash", str(ROOT / "scripts/secrets.sh"), str(d)], check=True, capture_output=True, timeout=60)
    return d


def after(service):
    """Every service that starts before service (depends_on, transitively)."""
    deps = SERVICES[service].get("depends_on", {})
    return set(deps).union(*(after(d) for d in deps)) if deps else set()


@pytest.mark.parametrize("service,path", [p for p in host_paths(secrets=True) if p.values[0] != "secrets"])
def test_every_mounted_secret_is_made_by_the_secrets_service(secrets, service, path):
    assert (secrets.parent / path).exists(), f"{service} mounts {path}, which scripts/secrets.sh does not make"
    assert "secrets" in after(service), f"{service} may start before the secrets service made {path}"


def test_secrets_are_private_and_made_once(secrets, tmp_path):
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o700
    for f in secrets.glob("*.password"):
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
        pw = f.read_bytes()
        assert len(pw) == 32 and pw.isalnum(), f"{f.name}: 32 letters and digits, no newline"
    for f in [*secrets.glob("*.pem"), secrets / "ca.key"]:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
    for sub in ("kafka", "influxdb", "telegraf", "grafana", "flink", "agent"):
        for f in (secrets / sub).iterdir():
            assert stat.S_IMODE(f.stat().st_mode) == 0o400, f"{sub}/{f.name}"
            assert f.read_bytes() == (secrets / f.name).read_bytes(), f"{sub}/{f.name} is not a copy"
    passwords = {f.name: f.read_bytes() for f in secrets.glob("*.password")}
    assert len(set(passwords.values())) == len(passwords), "two secrets share a password"
    subprocess.run(["bash", str(ROOT / "scripts/secrets.sh"), str(secrets)], check=True, capture_output=True)
    assert {f.name: f.read_bytes() for f in secrets.glob("*.password")} == passwords, "a second run replaced a password"


@pytest.mark.parametrize("cert,host", [("broker", "DNS:kafka"), ("influxdb", "DNS:influxdb"), ("admin", "DNS:localhost")])
def test_certificates_are_signed_by_the_ca_for_their_compose_host(secrets, cert, host):
    pem = secrets / f"{cert}.pem"
    subprocess.run(["openssl", "verify", "-CAfile", str(secrets / "ca.crt"), str(pem)], check=True, capture_output=True)
    text = subprocess.run(["openssl", "x509", "-in", str(pem), "-noout", "-subject", "-ext", "subjectAltName"],
                          check=True, capture_output=True, text=True).stdout
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
                assert str(value).startswith("/run/secrets/longhaul/"), f"{name}: {key}={value} is not a mounted secret"
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
    ds = yaml.safe_load((ROOT / "dashboards/provisioning/datasources/influxdb.yaml").read_text())["datasources"][0]
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
    for name in ("jobmanager", "influxdb"):
        for port in SERVICES[name].get("ports", []):
            assert port.startswith("127.0.0.1:"), f"{name} publishes {port} beyond this host"
    assert "ports" not in SERVICES["kafka"]


def native_kafka_security():
    """The native broker's security keys, as scripts/stack/kafka.sh writes them (secured mode)."""
    script = ". scripts/stack/lib.sh && load_services && kafka_listeners"
    env = {**os.environ, "LONGHAUL_KAFKA_SECURITY": "sasl_ssl", "LONGHAUL_STACK_DIR": "/nonexistent-stack",
           "LONGHAUL_SECRETS_DIR": "/dev/null/secrets"}
    out = subprocess.run(["bash", "-c", script.replace("kafka_listeners", "secrets_dir() { echo /S; }; kafka_listeners")],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line and not line.startswith("#"))


def test_compose_kafka_has_the_native_brokers_security():
    props = dict(line.split("=", 1) for line in (ROOT / "compose/kafka/server.properties").read_text().splitlines()
                 if "=" in line and not line.startswith("#"))
    for key, value in native_kafka_security().items():
        if key in ("listeners", "advertised.listeners"):
            names = lambda v: [x.split("://")[0] for x in v.split(",")]  # noqa: E731
            assert names(props[key]) == names(value), key
        elif key.startswith("ssl.") and key.endswith(".location"):
            assert props[key].rsplit("/", 1)[1] == value.rsplit("/", 1)[1], key
        else:
            assert props.get(key) == value, f"compose/kafka/server.properties {key}={props.get(key)}, native {value}"


def test_every_build_context_has_its_dockerfile():
    for name, svc in SERVICES.items():
        build = svc.get("build")
        if build is None:
            continue
        context = build if isinstance(build, str) else build.get("context", ".")
        dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
        assert (ROOT / context / dockerfile).is_file(), f"{name}: {context}/{dockerfile} missing"


@pytest.mark.parametrize("service,key", [
    ("kafka", "LONGHAUL_KAFKA_VERSION"), ("jobmanager", "LONGHAUL_FLINK_VERSION"), ("taskmanager", "LONGHAUL_FLINK_VERSION"),
    ("influxdb", "LONGHAUL_INFLUXDB_VERSION"), ("telegraf", "LONGHAUL_TELEGRAF_VERSION"),
])
def test_image_versions_match_the_native_stack(service, key):
    tag = SERVICES[service]["image"].split(":")[1]
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
