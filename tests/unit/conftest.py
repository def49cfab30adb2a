"""Fixtures shared by the unit tests of the deployment files (compose, Kubernetes): the longhaul
CLI of this checkout and the secrets folder that compose's `secrets` service makes with it."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    """The longhaul CLI of this checkout (the operator image's; secrets.sh runs it)."""
    out = tmp_path_factory.mktemp("cli") / "longhaul"
    go = shutil.which("go") or "/usr/local/go/bin/go"
    subprocess.run(
        [go, "build", "-o", str(out), "./operator/cmd/longhaul"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


def make_secrets(cli, d):
    subprocess.run(
        ["bash", str(ROOT / "scripts/secrets.sh"), str(d)],
        check=True,
        capture_output=True,
        timeout=60,
        env={**os.environ, "LONGHAUL_CLI": str(cli)},
    )


@pytest.fixture(scope="module")
def secrets(cli, tmp_path_factory):
    """./secrets as the compose `secrets` service makes it (scripts/secrets.sh), made twice."""
    d = tmp_path_factory.mktemp("compose") / "secrets"
    for _ in range(2):
        make_secrets(cli, d)
    return d
