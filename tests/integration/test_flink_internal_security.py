"""Flink's internal connections on the real stack admit only Flink's own processes: the
JobManager's RPC port (where a job graph is submitted), its blob server (a job's jars), the
TaskManager's RPC and data ports (a job's records) speak mutual TLS with flink-internal.p12 alone
(scripts/stack/flink.sh, flink_internal_ssl_conf). A local user without that key gets no answer:
not in plain bytes, not with a TLS client without a certificate, not with a certificate of the
stack's CA. Holding the key, the same handshake is accepted: the refusals are the certificate's,
not a closed port's."""

import os
import re
import socket
import ssl
import subprocess

import flink_job
import pytest
import yaml
from alertmanager import SECRETS, STACK

STORE = SECRETS / "flink-internal.p12"
PORT_NAMES = ("JobManager RPC", "blob server", "TaskManager RPC", "TaskManager data")


def flat(tree, prefix=""):
    """config.yaml's keys as Flink reads them: nested maps joined with dots."""
    out = {}
    for k, v in tree.items():
        key = f"{prefix}{k}"
        out.update(flat(v, key + ".") if isinstance(v, dict) else {key: v})
    return out


CONF = flat(yaml.safe_load((STACK / "run/flink/conf/config.yaml").read_text()))
STORE_PASSWORD = CONF["security.ssl.internal.keystore-password"]  # no secret: the file's mode guards it


@pytest.fixture(scope="module")
def taskmanager():
    (tm,) = flink_job.rest("/taskmanagers")["taskmanagers"]  # the stack runs one
    return tm


@pytest.fixture(scope="module")
def ports(taskmanager):
    """Each internal port of the running stack: the JobManager's from its config, the
    TaskManager's as the JobManager knows them (its RPC port is picked at its start)."""
    rpc = re.search(r":(\d+)/", taskmanager["path"]).group(1)  # pekko.ssl.tcp://flink@127.0.0.1:PORT/user/…
    return {
        "JobManager RPC": CONF["jobmanager.rpc.port"],
        "blob server": CONF["blob.server.port"],
        "TaskManager RPC": int(rpc),
        "TaskManager data": taskmanager["dataPort"],
    }


def test_the_running_config_turns_internal_tls_on_with_flinks_own_key():
    assert CONF["security.ssl.internal.enabled"] is True
    assert CONF["security.ssl.internal.keystore"] == CONF["security.ssl.internal.truststore"] == str(STORE)
    assert oct(STORE.stat().st_mode & 0o777) == "0o600"


def test_the_taskmanager_speaks_tls_to_the_jobmanager(taskmanager):
    assert taskmanager["path"].startswith("pekko.ssl.tcp://"), taskmanager["path"]


@pytest.fixture(scope="module")
def key_pem(tmp_path_factory):
    """The key and certificate of flink-internal.p12 as PEM, for the one client that holds them."""
    pem = tmp_path_factory.mktemp("internal") / "flink-internal.pem"
    argv = [
        "openssl",
        "pkcs12",
        "-in",
        str(STORE),
        "-nodes",
        "-passin",
        f"pass:{STORE_PASSWORD}",
        "-out",
        str(pem),
    ]
    subprocess.run(argv, check=True, capture_output=True)
    os.chmod(pem, 0o600)
    return pem


def answer(port, cert=None):
    """What a TLS client (no server check; `cert` its certificate and key, or none) meets on
    127.0.0.1:port: "refused" if the handshake or the first read fails (TLS 1.3 reports a client
    certificate the server rejects at the first read), "accepted" if the server then waits for
    the protocol's first message."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    if cert:
        ctx.load_cert_chain(str(cert))
    with socket.create_connection(("127.0.0.1", int(port)), timeout=10) as raw:
        try:
            with ctx.wrap_socket(raw) as tls:
                tls.settimeout(2)
                try:
                    return "refused" if tls.recv(1) == b"" else "accepted"
                except TimeoutError:
                    return "accepted"
        except (ssl.SSLError, ConnectionError):
            return "refused"


@pytest.mark.parametrize("name", PORT_NAMES)
def test_flinks_own_key_is_admitted(name, ports, key_pem):
    assert answer(ports[name], key_pem) == "accepted", name


@pytest.mark.parametrize("name", PORT_NAMES)
@pytest.mark.parametrize(
    "client", [None, "admin.pem"], ids=["no certificate", "a certificate of the stack's CA"]
)
def test_any_other_tls_client_is_refused(name, client, ports):
    assert answer(ports[name], client and SECRETS / client) == "refused", name


@pytest.mark.parametrize("name", PORT_NAMES)
def test_plain_bytes_get_no_answer(name, ports):
    with socket.create_connection(("127.0.0.1", int(ports[name])), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.0\r\n\r\n" + bytes(64))
        s.settimeout(5)
        try:
            got = s.recv(64)
        except ConnectionError:
            got = b""
    # a TLS server answers a non-TLS client with nothing, or with an alert record (type 0x15)
    assert got == b"" or got[:1] == b"\x15", (name, got)
