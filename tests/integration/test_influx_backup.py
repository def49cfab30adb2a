"""InfluxDB's backup and restore port (bind-address, LONGHAUL_INFLUX_RPC_PORT) has no
authentication, and InfluxDB 1.8 cannot turn it off. The native stack, run as root as here, runs
InfluxDB in a network namespace of its own: the port listens there and nowhere a local user can
connect, while the HTTP port reaches the host's 127.0.0.1 through systemd-socket-proxyd. The
backup procedure of docs/operations.md (scripts/stack/influxd-rpc.sh, as root) backs up and
restores through that namespace."""

import os
import pathlib
import socket
import subprocess
import time

import pytest
import stack
from conftest import influxdb, now_ms

ROOT = pathlib.Path(__file__).resolve().parents[2]

RPC_PORT = int(os.environ.get("LONGHAUL_INFLUX_RPC_PORT", "8088"))
HTTP_PORT = int(influxdb.URL.rsplit(":", 1)[1].split("/")[0])


def netns():
    return stack.run("influxdb_netns").stdout.strip()


def connects(port, ns=None):
    """Whether a TCP connection to 127.0.0.1:port succeeds, from the host or from namespace ns."""
    if ns:
        r = subprocess.run(
            ["ip", "netns", "exec", ns, "bash", "-c", f"exec 3<>/dev/tcp/127.0.0.1/{port}"],
            capture_output=True,
            timeout=10,
        )
        return r.returncode == 0
    with socket.socket() as s:
        s.settimeout(5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_the_backup_port_listens_in_influxdbs_namespace_alone():
    assert os.geteuid() == 0, "the stack runs as root here, so InfluxDB has a namespace"
    ns = netns()
    assert ns, "no namespace for InfluxDB"
    assert connects(RPC_PORT, ns), f"InfluxDB's backup port does not listen in {ns}"
    assert not connects(RPC_PORT), f"127.0.0.1:{RPC_PORT} accepts connections from the host"
    # the HTTP port, the one clients use, reaches the host through the proxy
    assert connects(HTTP_PORT)
    assert influxdb.health()


def rpc(*args):
    return subprocess.run(
        ["bash", "scripts/stack/influxd-rpc.sh", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_backup_restores_into_a_new_database(run_tag, tmp_path):
    admin = influxdb.stack_user("admin")
    ts = now_ms()
    assert (
        influxdb.write(f"backup_probe,src={run_tag} v=7i {ts}000000", rp="raw", auth=admin).status_code == 204
    )
    # a portable backup of the retention policy's shards holding the point
    b = rpc("backup", "-portable", "-db", influxdb.DB, "-rp", "raw", str(tmp_path))
    assert b.returncode == 0, b.stderr[-2000:]
    assert any(p.name.endswith(".manifest") for p in tmp_path.iterdir()), b.stderr[-2000:]
    copy = "restored_" + run_tag.replace("-", "_")
    try:
        r = rpc("restore", "-portable", "-db", influxdb.DB, "-rp", "raw", "-newdb", copy, str(tmp_path))
        assert r.returncode == 0, r.stderr[-2000:]
        # the restored shard is queryable a moment after restore returns (up to a second here)
        q = f'SELECT v FROM "raw"."backup_probe" WHERE "src" = \'{run_tag}\''
        deadline = time.time() + 30
        while not (rows := influxdb.rows(q, db=copy, auth=admin)) and time.time() < deadline:
            time.sleep(0.5)
        assert [row["v"] for row in rows] == [7], rows
    finally:
        influxdb.request("POST", "/query", auth=admin, data={"q": f'DROP DATABASE "{copy}"'})


@pytest.mark.parametrize("cmd", ["dump", ""])
def test_the_script_takes_backup_and_restore_alone(cmd):
    r = rpc(*([cmd] if cmd else []))
    assert r.returncode != 0
    assert "usage:" in r.stderr
