"""Flink's REST API on the real JobManager admits one client: whoever presents the stack's REST
certificate (secrets/flink-rest.pem, self-signed; scripts/stack/flink.sh). Without it no local user
lists, cancels or submits a job, nor uploads a jar: not over plain http, not without a certificate,
and not with a certificate of the stack's own CA (admin.pem, Kafka's super user), since Flink
checks a client's chain, not who it is. The CLI says why it was refused."""

import os
import subprocess

import flink_job
import pytest
import requests
from alertmanager import SECRETS

URL = flink_job.rest_url()
CERT = os.environ["LONGHAUL_FLINK_CERT"]
REST_CRT = str(SECRETS / "flink-rest.crt")  # the server's certificate, public


def test_the_rest_certificate_opens_the_api():
    assert URL.startswith("https://"), URL
    overview = flink_job.rest("/overview")
    assert overview["taskmanagers"] >= 1, overview


@pytest.mark.parametrize(
    "client",
    [None, str(SECRETS / "admin.pem")],
    ids=["no certificate", "a certificate of the stack's CA"],
)
def test_any_other_client_is_refused_before_a_request(client):
    for method, path in (("GET", "/jobs/overview"), ("POST", "/jars/upload")):
        with pytest.raises(requests.exceptions.ConnectionError):  # SSLError is one
            requests.request(method, URL + path, cert=client, verify=REST_CRT, timeout=10)


def test_plain_http_gets_no_answer():
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(URL.replace("https://", "http://", 1) + "/jobs/overview", timeout=10)


def test_the_cli_without_the_rest_certificate_says_why_it_was_refused():
    env = {**os.environ, "LONGHAUL_FLINK_CERT": str(SECRETS / "admin.pem")}
    r = subprocess.run(
        [str(flink_job.CLI), "job", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode != 0 and "certificate" in r.stderr, (r.returncode, r.stderr)
    env.pop("LONGHAUL_FLINK_CERT")
    env["LONGHAUL_SECRETS_DIR"] = str(SECRETS.parent / "no-such-folder")  # no default either
    r = subprocess.run(
        [str(flink_job.CLI), "job", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "--flink-cert" in r.stderr, (r.returncode, r.stderr)
