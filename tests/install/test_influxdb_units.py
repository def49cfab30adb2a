"""InfluxDB's units on a clean Debian 12 booted with systemd, as deploy/gen renders them:
longhaul-influxdb.service in a network namespace of its own (PrivateNetwork=), and its HTTP port on
the machine's 127.0.0.1 through longhaul-influxdb-http.socket and .service (systemd-socket-proxyd
joining that namespace). The backup and restore port, which has no authentication, answers in
the namespace and nowhere else; the HTTP socket stays shut until the admin is made from inside
(install.sh setup's order), then relays; the backup procedure of docs/operations.md runs.

The machine shares the host's network, where the test stack's InfluxDB relay holds 8086: the
units' HTTP port is moved to 28086 here, nothing else of them changes."""

import base64
import os
import pathlib
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/lib"))

import nspawn  # noqa: E402

UNITS = ["longhaul-influxdb.service", "longhaul-influxdb-http.service", "longhaul-influxdb-http.socket"]
# 18086 is the cluster stack's InfluxDB, which runs beside the install tier
PORT, MOVED, RPC = "8086", "28086", "8088"
STATE = "/var/lib/longhaul/influxdb"
PASSWORD = "pw-" + os.urandom(6).hex()


def stack(script, **env):
    """A bash snippet with scripts/stack/lib.sh and the services loaded; its stdout."""
    return subprocess.run(
        ["bash", "-c", f". scripts/stack/lib.sh && load_services && {script}"],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def influxdb_conf(tmp_path):
    """The config `install.sh central` writes (configure_influxdb), plain http on the moved port."""
    # RUN_ROOT as install.sh sets it: after lib.sh, which derives it from the stack's folder
    stack(
        f"RUN_ROOT={tmp_path} configure_influxdb",
        LONGHAUL_INFLUX=f"http://127.0.0.1:{MOVED}",
        LONGHAUL_INFLUX_PORT=MOVED,
        LONGHAUL_STACK_DIR=str(tmp_path / "stack"),
    )
    conf = (tmp_path / "influxdb/influxdb.conf").read_text().replace(str(tmp_path / "influxdb"), STATE)
    assert f'bind-address = "127.0.0.1:{RPC}"' in conf and f'bind-address = "127.0.0.1:{MOVED}"' in conf
    out = tmp_path / "influxdb.conf"
    out.write_text(conf)
    return out


def connects(m, port, pid=None):
    """Whether 127.0.0.1:port accepts a connection in the machine, or in process pid's network."""
    ns = ["nsenter", "-t", str(pid), "-n"] if pid else []
    return m.run([*ns, "bash", "-c", f"exec 3<>/dev/tcp/127.0.0.1/{port}"], check=False).returncode == 0


def http(m, method, path, body="", pid=None, auth=""):
    """One HTTP/1.0 request to 127.0.0.1:MOVED in the machine (no curl there), or in process pid's
    network: the response's status line."""
    ns = ["nsenter", "-t", str(pid), "-n"] if pid else []
    head = [f"{method} {path} HTTP/1.0", "Content-Type: application/x-www-form-urlencoded"]
    head += [f"Authorization: Basic {auth}"] if auth else []
    request = "\r\n".join([*head, f"Content-Length: {len(body)}", "", body])
    script = f'exec 3<>/dev/tcp/127.0.0.1/{MOVED} && printf "%s" "$1" >&3 && head -n 1 <&3'
    return m.run([*ns, "bash", "-c", script, "_", request], check=False).stdout.strip()


def wait(what, cond, timeout_s=30):
    deadline = time.time() + timeout_s
    while not (got := cond()) and time.time() < deadline:
        time.sleep(0.5)
    assert got, f"{what}: not within {timeout_s} s"
    return got


def units(tmp_path, before=False):
    """The rendered units with the HTTP port moved; before: InfluxDB's unit as the release before
    rendered it (no PrivateNetwork=, no relay)."""
    out = {}
    for name in UNITS[: 1 if before else None]:
        text = (ROOT / "deploy/systemd" / name).read_text().replace(f"127.0.0.1:{PORT}", f"127.0.0.1:{MOVED}")
        if before:
            text, n = re.subn(r"(?:# .*\n)*PrivateNetwork=yes\n", "", text)
            assert n == 1
        out[name] = tmp_path / name
        out[name].write_text(text)
    return out


def install(m, tmp_path, before=False):
    """What install.sh files and central leave for InfluxDB: the program, its config, its units,
    its user, the credential its unit loads (unused on http)."""
    m.copy_in(pathlib.Path(stack("influxdb_home")) / "influxd", "/opt/longhaul/bin/influxd")
    m.copy_in(influxdb_conf(tmp_path), "/etc/longhaul/influxdb/influxdb.conf")
    (tmp_path / "influxdb.pem").write_text("unused: plain http here\n")
    m.copy_in(tmp_path / "influxdb.pem", "/etc/longhaul/secrets/influxdb.pem")
    m.run(
        "id longhaul-influxdb || useradd --system --no-create-home --shell /usr/sbin/nologin longhaul-influxdb"
    )
    install_units(m, tmp_path, before)


def install_units(m, tmp_path, before=False):
    """install.sh files' units into /etc/systemd/system, then systemctl daemon-reload."""
    for name, path in units(tmp_path, before).items():
        m.copy_in(path, f"/etc/systemd/system/{name}")
    m.run("systemctl daemon-reload")


def main_pid(m):
    return int(m.run(["systemctl", "show", "-p", "MainPID", "--value", "longhaul-influxdb"]).stdout or 0)


def active(m, unit):
    return m.run(["systemctl", "is-active", unit], check=False).stdout.strip() == "active"


def create_admin(m, pid=None):
    """install.sh setup's bootstrap: the admin (from inside the namespace: pid), then its marker."""
    q = f"q=CREATE USER admin WITH PASSWORD '{PASSWORD}' WITH ALL PRIVILEGES"
    assert http(m, "POST", "/query", q.replace(" ", "+"), pid=pid).startswith("HTTP/1.0 200")
    m.run(f"touch {STATE}/meta/longhaul-admin")


ADMIN = base64.b64encode(f"admin:{PASSWORD}".encode()).decode()


def test_influxdbs_backup_port_is_its_namespaces_alone_and_http_opens_after_the_admin(tmp_path):
    # CAP_NET_ADMIN: systemd brings up the loopback of InfluxDB's namespace, as a host's does
    with nspawn.Machine(log_dir=tmp_path, capabilities=["CAP_NET_ADMIN"]) as m:
        install(m, tmp_path)
        m.run("systemctl start longhaul-influxdb")
        pid = wait("InfluxDB's main process", lambda: main_pid(m))

        # the backup port: in InfluxDB's namespace, not on the machine's loopback
        wait("the backup port in InfluxDB's namespace", lambda: connects(m, RPC, pid))
        assert not connects(m, RPC), f"127.0.0.1:{RPC} accepts connections in the machine"
        assert http(m, "GET", "/ping", pid=pid).startswith("HTTP/1.0 204")

        # no admin yet: the socket's condition holds it shut, so nobody can race for the admin
        m.run("systemctl start longhaul-influxdb-http.socket")
        assert not active(m, "longhaul-influxdb-http.socket")
        assert not connects(m, MOVED)

        # install.sh setup's order: the admin from inside, its marker, then the socket
        create_admin(m, pid)
        m.run("systemctl start longhaul-influxdb-http.socket")
        assert active(m, "longhaul-influxdb-http.socket")
        assert http(m, "GET", "/ping").startswith("HTTP/1.0 204"), "the relay does not reach InfluxDB"
        assert active(m, "longhaul-influxdb-http.service")
        assert http(m, "POST", "/query", "q=SHOW+USERS", auth=ADMIN).startswith("HTTP/1.0 200")
        assert http(m, "POST", "/query", "q=SHOW+USERS").startswith("HTTP/1.0 401")
        assert not connects(m, RPC), "the relay opened the backup port"

        # the backup of docs/operations.md, as root, in InfluxDB's namespace
        r = m.run(
            f'nsenter -t "$(systemctl show -p MainPID --value longhaul-influxdb)" -n '
            f"/opt/longhaul/bin/influxd backup -portable -host 127.0.0.1:{RPC} /root/backup",
            timeout=120,
        )
        assert any(re.search(r"\.manifest$", f) for f in m.run("ls /root/backup").stdout.split()), r.stderr


def test_a_running_installation_upgrades_in_place_keeping_its_data(tmp_path):
    """docs/operations.md, *InfluxDB in a network namespace of its own*: an install of the release
    before (InfluxDB on the host's loopback, backup port open, admin made) takes the new units."""
    with nspawn.Machine(log_dir=tmp_path, capabilities=["CAP_NET_ADMIN"]) as m:
        install(m, tmp_path, before=True)
        m.run("systemctl start longhaul-influxdb")
        wait("InfluxDB on the machine's loopback", lambda: connects(m, MOVED))
        assert connects(m, RPC), "the release before: the backup port on the machine's loopback"
        create_admin(m)
        point = "q=CREATE+DATABASE+longhaul"
        assert http(m, "POST", "/query", point, auth=ADMIN).startswith("HTTP/1.0 200")
        body = "upgrade_probe v=42i 1700000000000000000"
        assert http(m, "POST", "/write?db=longhaul", body, auth=ADMIN).startswith("HTTP/1.0 204")

        # the upgrade: install.sh files (the new units), daemon-reload, restart, the target
        install_units(m, tmp_path)
        m.run("systemctl restart longhaul-influxdb && systemctl start longhaul-influxdb-http.socket")
        pid = wait("InfluxDB's main process", lambda: main_pid(m))
        wait("the backup port in InfluxDB's namespace", lambda: connects(m, RPC, pid))
        assert not connects(m, RPC), "the backup port still on the machine's loopback"
        assert active(m, "longhaul-influxdb-http.socket"), "the admin's marker, made before, opens the socket"
        q = "/query?db=longhaul&q=SELECT+v+FROM+upgrade_probe"
        r = m.run(
            [
                "bash",
                "-c",
                f'exec 3<>/dev/tcp/127.0.0.1/{MOVED} && printf "%s" "$1" >&3 && cat <&3',
                "_",
                f"GET {q} HTTP/1.0\r\nAuthorization: Basic {ADMIN}\r\n\r\n",
            ],
        ).stdout
        assert r.startswith("HTTP/1.0 200") and '"values":[["2023-11-14T22:13:20Z",42]]' in r, r
