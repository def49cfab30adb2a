"""docker-compose.yml is secured like the native stack (it cannot run here, no Docker engine):
every secret a service mounts or names is made by the compose secrets service (scripts/secrets.sh,
which runs here), private and made once, its certificates signed for their compose hosts; no
secret is written in the file; no anonymous Grafana, InfluxDB and Telegraf authenticate, Flink's
REST API admits its own self-signed certificate alone (and publishes on loopback only); Kafka's
security keys are those of the native broker.
(Alertmanager and the alert bridge: test_compose_alerting.py.)"""

import os
import re
import stat
import subprocess

import pytest
import yaml
from compose_file import ROOT, SERVICES, after, environments, host_paths, in_secrets
from conftest import make_secrets


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
    "job-keeper",
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


def test_flinks_rest_certificate_is_its_own_not_the_cas(secrets):
    """Self-signed for the jobmanager host: a certificate of the CA (any service's, a pScheduler
    host's) is not the one the REST API admits."""
    pem = str(secrets / "flink-rest.pem")
    signed = subprocess.run(
        ["openssl", "verify", "-CAfile", str(secrets / "ca.crt"), pem], capture_output=True
    )
    assert signed.returncode != 0, "the CA signed Flink's REST certificate"
    subprocess.run(["openssl", "verify", "-CAfile", pem, pem], check=True, capture_output=True)
    text = subprocess.run(
        ["openssl", "x509", "-in", pem, "-noout", "-ext", "subjectAltName"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "DNS:jobmanager" in text, text
    assert stat.S_IMODE((secrets / "flink-rest.p12").stat().st_mode) == 0o600


SECRET_KEY = re.compile(r"PASSWORD|TOKEN|SECRET|_KEY$", re.I)


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


def test_influxdbs_backup_port_is_its_containers_alone():
    """It has no authentication: on the container's loopback (its own network namespace, which no
    other container shares), never published."""
    assert SERVICES["influxdb"]["environment"]["INFLUXDB_BIND_ADDRESS"] == "127.0.0.1:8088"
    assert SERVICES["influxdb"]["ports"] == ["127.0.0.1:8086:8086"]
    assert all("network_mode" not in s for s in SERVICES.values()), "a service shares a network namespace"


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
