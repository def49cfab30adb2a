"""Who each central unit runs as and which secrets it gets, read without booting them: one system
user per service (the job keeper is Flink's, InfluxDB's HTTP relay InfluxDB's), every secret a unit reads loaded as its own systemd
credential (LoadCredential=) from the secrets folder, which install.sh leaves root's, and no unit
given an administrator's secret. (On a booted Debian, with the package: tests/install/
test_central_package.py.)"""

import re
import shlex

from systemd_unit_files import HOST_UNITS, INSTALL, RELAYS, ROOT, SERVICES, install_users, unit, values

CENTRAL = [s for s in SERVICES if s not in HOST_UNITS]
FLINK = {
    "longhaul-flink-jobmanager.service",
    "longhaul-flink-taskmanager.service",
    "longhaul-job-keeper.service",
}
FOLDER = "/etc/longhaul/secrets/"
# what people and `longhaul setup` use, never a daemon
ADMINS = {
    "ca.key",
    "admin.pem",
    "kafka-admin.password",
    "kafka-operator.password",
    "influx-admin.password",
    "alertmanager-operator.password",
    "alertmanager-grafana.password",
}


def user(name):
    (u,) = values(unit(name), "Service", "User")
    assert values(unit(name), "Service", "Group") == [u], f"{name}: Group= is not its User="
    return u


def credentials(name):
    """{credential: file} of a unit's LoadCredential= lines."""
    return dict(v.split(":", 1) for v in values(unit(name), "Service", "LoadCredential"))


def settings(name):
    return " ".join(v for section in unit(name).values() for k, v in section if k != "LoadCredential")


def environment(name):
    return dict(
        var.partition("=")[::2]
        for v in values(unit(name), "Service", "Environment")
        for var in shlex.split(v)
    )


def test_every_central_service_runs_as_a_user_of_its_own():
    users = {name: user(name) for name in CENTRAL}
    assert {users[n] for n in FLINK} == {"longhaul-flink"}, "Flink's units and its keeper"
    for relay, of in RELAYS.items():
        assert users[relay] == users[of], f"{relay} relays into {of}'s network as its user"
    others = [users[n] for n in CENTRAL if n not in FLINK and n not in RELAYS]
    assert len(set(others)) == len(others), f"two services share a user: {users}"
    made = install_users() - {user(n) for n in HOST_UNITS}
    assert set(users.values()) == made, "install.sh central makes exactly the units' users"
    assert not {"longhaul", "root"} & made


def test_the_package_makes_the_users_of_the_units_it_ships():
    shipped = re.findall(
        r"src: deploy/systemd/(\S+\.service)", (ROOT / "packaging/nfpm/longhaul.yaml").read_text()
    )
    assert shipped
    made = re.search(
        r'SERVICE_USERS="([^"]*)"', (ROOT / "packaging/scripts/longhaul.vars").read_text()
    ).group(1)
    assert {user(n) for n in shipped} == set(made.split())


def test_every_secret_a_unit_reads_is_its_own_credential():
    for name in CENTRAL:
        loaded = credentials(name)
        for cred, source in loaded.items():
            assert source == FOLDER + cred, f"{name}: {cred} from {source}"
            assert cred not in ADMINS, f"{name} gets the administrators' {cred}"
        text = settings(name)
        used = set(re.findall(r"%d/([\w.-]+)", text)) | set(
            re.findall(r"\$\$CREDENTIALS_DIRECTORY/([\w.-]+)", text)
        )
        assert used <= set(loaded), f"{name} reads {sorted(used - set(loaded))} without loading them"
        # the folder itself only for the CA's certificate, which is public
        assert set(re.findall(FOLDER + r"([\w.-]+)", text)) <= {"ca.crt"}, f"{name} reads the secrets folder"


def test_the_configs_install_sh_writes_name_their_units_credentials():
    """Kafka's keystore, InfluxDB's and Alertmanager's certificates and the keystore of Flink's REST
    API are named in their configs: install.sh points them at the unit's credentials, which the
    unit loads."""
    moved = re.findall(r"^\s*to_credentials (\S+) \S+ (.+)$", INSTALL.read_text(), re.M)
    assert {u for u, _ in moved} == {
        "longhaul-kafka.service",
        "longhaul-influxdb.service",
        "longhaul-alertmanager.service",
        "longhaul-flink-jobmanager.service",
    }
    for name, names in moved:
        assert set(names.split()) <= set(credentials(name)), f"{name}: {names}"


def test_the_job_names_the_credential_the_flink_units_load():
    given = re.search(r"--kafka-password-file (\S+)\"", INSTALL.read_text()).group(1)
    assert "/" not in given, "a bare name: the credential, found in each unit's own folder"
    for name in FLINK - {"longhaul-job-keeper.service"}:
        assert given in credentials(name), name
    assert set(credentials("longhaul-job-keeper.service")) == {"flink-rest.pem"}, (
        "the keeper holds no secret but the certificate Flink's REST API admits"
    )


def test_flinks_rest_api_admits_the_keeper_and_the_watchdog_alone():
    """The JobManager serves its REST API with flink-rest.p12 (mutual TLS); the two daemons that
    call it present flink-rest.pem, the same certificate; no other unit gets either."""
    assert "flink-rest.p12" in credentials("longhaul-flink-jobmanager.service")
    clients = {"longhaul-job-keeper.service", "longhaul-watchdog.service"}
    for name in clients:
        assert "flink-rest.pem" in credentials(name), name
        assert environment(name)["LONGHAUL_FLINK_CERT"] == "%d/flink-rest.pem", name
    for name in set(CENTRAL) - clients - {"longhaul-flink-jobmanager.service"}:
        assert not {"flink-rest.pem", "flink-rest.p12"} & set(credentials(name)), name
    env = (ROOT / "packaging/longhaul.env").read_text()
    assert "LONGHAUL_FLINK=https://" in env, "the package's clients reach Flink over TLS"


def test_the_alert_bridge_is_kafkas_alerter_and_alertmanagers_bridge():
    env = environment("longhaul-alert-bridge.service")
    assert env["LONGHAUL_KAFKA_USER"] == "alerter"
    assert env["LONGHAUL_KAFKA_PASSWORD_FILE"] == "%d/kafka-alerter.password"
    assert env["LONGHAUL_ALERTMANAGER_USER"] == "bridge"
    assert env["LONGHAUL_ALERTMANAGER_PASSWORD_FILE"] == "%d/alertmanager-bridge.password"
    assert values(unit("longhaul-alert-bridge.service"), "Service", "EnvironmentFile") == [
        "/etc/longhaul/longhaul.env"
    ]
    # where Alertmanager is and the CA it is signed by: longhaul.env, as for Kafka and InfluxDB
    assert re.search(r"LONGHAUL_ALERTMANAGER LONGHAUL_ALERTMANAGER_CA", INSTALL.read_text())


def test_flinks_internal_key_is_the_flink_units_alone():
    """Flink's internal connections are mutual TLS with flink-internal.p12: the JobManager and the
    TaskManager load it, each from its own credentials folder (the TaskManager names its copy on
    its command line, over config.yaml's, which names the JobManager's); no other unit gets it."""
    units = {"longhaul-flink-jobmanager.service", "longhaul-flink-taskmanager.service"}
    for name in units:
        assert "flink-internal.p12" in credentials(name), name
    for name in set(CENTRAL) - units:
        assert "flink-internal.p12" not in credentials(name), name
    tm = (ROOT / "deploy/systemd/longhaul-flink-taskmanager.service").read_text().replace("\\\n", " ")
    start = next(line for line in tm.splitlines() if line.startswith("ExecStart="))
    for key in ("keystore", "truststore"):
        assert f"-Dsecurity.ssl.internal.{key}=%d/flink-internal.p12" in start.split(), start
    assert "flink-internal.p12" in re.search(
        r"to_credentials longhaul-flink-jobmanager.service .*", INSTALL.read_text()
    ).group(0)
