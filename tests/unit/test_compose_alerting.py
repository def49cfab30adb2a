"""docker-compose's alerting: Alertmanager and the alert bridge as the native stack runs them
(scripts/stack/alertmanager.sh, bridge.sh): the same flags, the same rendered config, the bridge's
own identities, TLS and basic auth from the secrets service. The compose file's other services:
test_compose.py and test_compose_security.py, whose readers of the compose file (compose_file.py)
these tests share."""

import re
import subprocess

import stack_programs
import yaml
from compose_file import ROOT, SERVICES, host_path, in_secrets


def test_the_alert_bridge_is_kafkas_alerter_and_alertmanagers_bridge(secrets):
    env = SERVICES["alert-bridge"]["environment"]
    assert env["LONGHAUL_KAFKA_USER"] == "alerter"
    assert env["LONGHAUL_KAFKA_PASSWORD_FILE"].endswith("/kafka-alerter.password")
    assert env["LONGHAUL_ALERTMANAGER_USER"] == "bridge"
    assert env["LONGHAUL_ALERTMANAGER_PASSWORD_FILE"].endswith("/alertmanager-bridge.password")
    # TLS to the alertmanager service by the name its certificate holds (test above), trusting the CA
    assert env["LONGHAUL_ALERTMANAGER"] == "https://alertmanager:9093"
    assert env["LONGHAUL_ALERTMANAGER_CA"] == env["LONGHAUL_KAFKA_CA"] == "/etc/longhaul/ca.crt"
    assert host_path("alert-bridge", "/etc/longhaul/ca.crt") == "./secrets/ca.crt"
    assert (
        SERVICES["grafana"]["environment"]["LONGHAUL_GRAFANA_ALERTMANAGER_URL"]
        == env["LONGHAUL_ALERTMANAGER"]
    )
    # it holds its own two secrets and nothing else
    assert sorted(p.name for p in (secrets / "alert-bridge").iterdir()) == [
        "alertmanager-bridge.password",
        "kafka-alerter.password",
    ]


def alertmanager_flags():
    return dict(f.split("=", 1) for f in SERVICES["alertmanager"]["command"])


def test_alertmanager_serves_tls_and_basic_auth_from_the_secrets_service(secrets):
    flags = alertmanager_flags()
    web = yaml.safe_load(in_secrets(secrets, "alertmanager", flags["--web.config.file"]).read_text())
    tls = web["tls_server_config"]
    for key in ("cert_file", "key_file"):
        assert (
            in_secrets(secrets, "alertmanager", tls[key]).read_bytes()
            == (secrets / "alertmanager.pem").read_bytes()
        )
    assert sorted(web["basic_auth_users"]) == ["bridge", "grafana", "operator"]
    assert all(h.startswith("$2") for h in web["basic_auth_users"].values()), (
        "bcrypt hashes, never a password"
    )
    # its health check logs in as the operator, whose password it holds, trusting the CA
    check = SERVICES["alertmanager"]["healthcheck"]["test"]
    amtool = next(a.split("=", 1)[1] for a in check if a.startswith("--http.config.file="))
    client = yaml.safe_load((ROOT / host_path("alertmanager", amtool)).read_text())
    assert client["basic_auth"]["username"] == "operator"
    assert (
        in_secrets(secrets, "alertmanager", client["basic_auth"]["password_file"]).read_bytes()
        == (secrets / "alertmanager-operator.password").read_bytes()
    )
    assert host_path("alertmanager", client["tls_config"]["ca_file"]) == "./secrets/ca.crt"
    assert any(a.startswith("--alertmanager.url=https://localhost:") for a in check)


def test_alertmanager_runs_with_the_native_stacks_flags():
    """scripts/stack/alertmanager.sh's flags, the same values but for paths and addresses."""
    native = dict(w.split("=", 1) for w in stack_programs.deployed()["alertmanager"] if w.startswith("--"))
    flags = alertmanager_flags()
    assert set(flags) == set(native)
    assert flags["--data.maintenance-interval"] == native["--data.maintenance-interval"]
    assert flags["--cluster.listen-address"] == native["--cluster.listen-address"] == "", "no cluster port"
    assert flags["--storage.path"].startswith("/alertmanager/"), "its data on the alertmanager-data volume"
    port = flags["--web.listen-address"].rsplit(":", 1)[1]
    assert SERVICES["alertmanager"]["ports"] == [f"127.0.0.1:{port}:{port}"]
    entry = " ".join(SERVICES["alertmanager"]["entrypoint"])
    assert (
        flags["--config.file"] in entry and "render.sh" in entry and 'exec /bin/alertmanager "$$@"' in entry
    )


def compose_value(value):
    """A value of docker-compose.yml as compose gives it with no .env: ${VAR:-default} -> default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))


def render_compose_config(out, drop=None):
    """compose/alertmanager/render.sh as the alertmanager service runs it, with its environment."""
    env = {k: compose_value(v) for k, v in SERVICES["alertmanager"]["environment"].items() if k != drop}
    entry = SERVICES["alertmanager"]["entrypoint"][2]
    script, src, dst = re.search(r"/bin/sh (\S+render\.sh) (\S+) (\S+) &&", entry).groups()
    assert dst == alertmanager_flags()["--config.file"]
    return subprocess.run(
        [
            "sh",
            str(ROOT / host_path("alertmanager", script)),
            str(ROOT / host_path("alertmanager", src)),
            str(out),
        ],
        env=stack_programs.clean_env(**env),
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_alertmanager_config_is_the_native_one_filled_in(tmp_path):
    out = tmp_path / "alertmanager.yml"
    run = render_compose_config(out)
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    config = yaml.safe_load(text)

    def strings(tree):
        if isinstance(tree, dict):
            tree = list(tree.values())
        if isinstance(tree, list):
            return [s for t in tree for s in strings(t)]
        return [str(tree)]

    left = [s for s in strings(config) if "${" in s]
    assert not left, f"placeholders left unfilled: {left}"
    env = SERVICES["alertmanager"]["environment"]
    # the templates Alertmanager loads are the repo's
    assert config["templates"] == [f"{env['LONGHAUL_ALERT_TEMPLATES']}/*.tmpl"]
    assert host_path("alertmanager", env["LONGHAUL_ALERT_TEMPLATES"]) == "./alerting/templates"
    # and the whole file is what the native stack writes (scripts/stack/alertmanager.sh, through the
    # same renderer, its LONGHAUL_ALERT_* from defaults.env) with the same values, but for where the
    # templates are
    native = tmp_path / "native.yml"
    values = {k: compose_value(v) for k, v in env.items() if k != "LONGHAUL_ALERT_TEMPLATES"}
    subprocess.run(
        [
            "bash",
            "-c",
            '. scripts/stack/lib.sh && load_services && render_alertmanager_config "$0"',
            str(native),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        env=stack_programs.stack_env(tmp_path / "stack", **values),
    )
    expected = native.read_text().replace(f"{ROOT}/alerting/templates", env["LONGHAUL_ALERT_TEMPLATES"])
    assert text == expected


def test_alertmanager_does_not_start_on_a_half_filled_config(tmp_path):
    out = tmp_path / "alertmanager.yml"
    run = render_compose_config(out, drop="LONGHAUL_ALERT_WEBHOOK_URL")
    assert run.returncode != 0 and "LONGHAUL_ALERT_WEBHOOK_URL" in run.stderr, run.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_alert_values_are_taken_literally(tmp_path):
    src, out = tmp_path / "in.yml", tmp_path / "out.yml"
    src.write_text("url: '${LONGHAUL_ALERT_WEBHOOK_URL}'\nother: $HOME ${HOME}\n")
    url = r"https://chat.example/hooks/a?b=1&c=2|x\1#frag"
    run = subprocess.run(
        ["sh", str(ROOT / "compose/alertmanager/render.sh"), str(src), str(out)],
        capture_output=True,
        text=True,
        env=stack_programs.clean_env(LONGHAUL_ALERT_WEBHOOK_URL=url),
        timeout=30,
    )
    assert run.returncode == 0, run.stderr
    assert out.read_text() == f"url: '{url}'\nother: $HOME ${{HOME}}\n"


def test_notifications_default_to_nowhere_and_are_documented():
    """Compose runs no sink: the defaults are syntactically valid and reach nothing outside the
    container; every setting is in .env.example."""
    example = (ROOT / ".env.example").read_text()
    for key, value in SERVICES["alertmanager"]["environment"].items():
        default = compose_value(value)
        if key in ("LONGHAUL_ALERT_SMTP", "LONGHAUL_ALERT_WEBHOOK_URL", "LONGHAUL_ALERT_HEARTBEAT_URL"):
            assert re.match(r"(https?://)?localhost:", default), f"{key} defaults to {default}"
        if "${" in str(value):
            assert f"# {key}=" in example, f".env.example does not document {key}"
