"""InfluxDB of the native stack runs with authentication: who may do what, and what a refusal
says. Anonymous queries and writes get 401, a wrong password 401, the reader may not write and the
writer may not read (403), each with InfluxDB's own message; the CLI names the refused user and
never prints the password; Telegraf's starter refuses a writer credential InfluxDB refuses."""

import os
import pathlib
import subprocess
import uuid

import stack
from conftest import influxdb, now_ms

ROOT = pathlib.Path(__file__).resolve().parents[2]
DB = influxdb.DB


def point(tag):
    return f"security_probe,src={tag} v=1i {now_ms()}000000"


def test_anonymous_query_is_refused_with_401():
    r = influxdb.request("POST", "/query", auth=None, params={"db": DB}, data={"q": "SHOW MEASUREMENTS"})
    assert r.status_code == 401
    assert r.json() == {"error": "unable to parse authentication credentials"}


def test_anonymous_write_is_refused_with_401_and_stores_nothing(run_tag):
    r = influxdb.write(point(run_tag), rp="raw", auth=None)
    assert r.status_code == 401
    assert r.json() == {"error": "unable to parse authentication credentials"}
    assert (
        influxdb.series(
            f'SELECT * FROM "raw"."security_probe" WHERE "src" = \'{run_tag}\'',
            auth=influxdb.stack_user("reader"),
        )
        == []
    )


def test_a_wrong_password_is_refused_with_401():
    r = influxdb.request(
        "POST",
        "/query",
        auth=("reader", "not-" + uuid.uuid4().hex),
        params={"db": DB},
        data={"q": "SHOW MEASUREMENTS"},
    )
    assert r.status_code == 401
    assert r.json() == {"error": "authorization failed"}


def test_the_reader_reads_and_may_not_write(run_tag):
    reader = influxdb.stack_user("reader")
    assert (
        influxdb.request(
            "POST", "/query", auth=reader, params={"db": DB}, data={"q": "SHOW MEASUREMENTS"}
        ).status_code
        == 200
    )
    r = influxdb.write(point(run_tag), rp="raw", auth=reader)
    assert r.status_code == 403
    assert r.json() == {"error": f'"reader" user is not authorized to write to database "{DB}"'}


def test_the_writer_writes_and_may_not_read(run_tag):
    writer = influxdb.stack_user("writer")
    assert influxdb.write(point(run_tag), rp="raw", auth=writer).status_code == 204
    q = f'SELECT * FROM "raw"."security_probe" WHERE "src" = \'{run_tag}\''
    r = influxdb.request("POST", "/query", auth=writer, params={"db": DB}, data={"q": q})
    assert r.status_code == 403
    assert r.json()["error"].startswith("error authorizing query: writer not authorized to execute statement")
    assert r.json()["error"].endswith(f"requires READ on {DB}")
    assert len(influxdb.rows(q, auth=influxdb.stack_user("reader"))) == 1


def test_neither_service_user_may_administer():
    for user in ("reader", "writer"):
        r = influxdb.request(
            "POST", "/query", auth=influxdb.stack_user(user), data={"q": "CREATE USER x WITH PASSWORD 'y'"}
        )
        assert r.status_code == 403, user
        assert "requires admin privilege" in r.json()["error"], r.text


def test_debug_endpoints_need_the_admin():
    assert influxdb.request("GET", "/debug/vars", auth=None).status_code == 401
    assert influxdb.request("GET", "/debug/vars", auth=influxdb.stack_user("reader")).status_code == 403
    assert influxdb.request("GET", "/debug/vars", auth=influxdb.stack_user("admin")).status_code == 200


def alerts(env):
    """`longhaul alerts --since 1h` run in env, as it finished."""
    return subprocess.run(
        [str(ROOT / "bin" / "longhaul"), "alerts", "--since", "1h"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_cli_names_the_refused_user_and_never_the_password(tmp_path):
    wrong = "wrong-" + uuid.uuid4().hex
    pwfile = tmp_path / "reader.password"
    pwfile.write_text(wrong)
    env = {**os.environ, "LONGHAUL_INFLUX_USER": "reader", "LONGHAUL_INFLUX_PASSWORD_FILE": str(pwfile)}
    p = alerts(env)
    assert p.returncode == 1, p.stdout + p.stderr
    assert 'refused user "reader" (HTTP 401: authorization failed)' in p.stderr
    assert str(pwfile) in p.stderr
    assert wrong not in p.stdout + p.stderr

    env.pop("LONGHAUL_INFLUX_USER")
    # no user anywhere: not in the environment, and no local stack's secrets to default to
    env["LONGHAUL_SECRETS_DIR"] = str(tmp_path / "no-secrets")
    p = alerts(env)
    assert p.returncode == 1
    assert "refused anonymous access (HTTP 401: unable to parse authentication credentials)" in p.stderr
    assert "LONGHAUL_INFLUX_USER" in p.stderr


def test_telegrafs_starter_refuses_a_writer_influxdb_refuses(tmp_path):
    """The check start_telegraf makes before Telegraf runs (check_telegraf_writer): a wrong
    password file is said, with InfluxDB's answer, and Telegraf is not started with it."""
    pwfile = tmp_path / "writer.password"
    pwfile.write_text("wrong-" + uuid.uuid4().hex)
    env = {**os.environ, "LONGHAUL_TELEGRAF_INFLUX_PASSWORD_FILE": str(pwfile)}
    p = stack.run("check_telegraf_writer", env, check=False, timeout=60)
    assert p.returncode == 1
    assert 'InfluxDB refused Telegraf\'s user writer (HTTP 401 {"error":"authorization failed"})' in p.stderr
    assert str(pwfile) in p.stderr
    p = stack.run("check_telegraf_writer", check=False, timeout=60)
    assert p.returncode == 0, p.stderr
