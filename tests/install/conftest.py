"""What the install tier's tests share: the packages as `make dist` builds them, once per run
(every architecture and format, without SBOMs), and a newer build of the agent's .deb (the same
sources, version + "+upgrade") for the upgrade."""

import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def dist_sh(out, *args, version=None):
    env = {**os.environ, **({"LONGHAUL_VERSION": version} if version else {})}
    cmd = ["bash", str(ROOT / "scripts/dist.sh"), "--no-sbom", "--no-images", "--out", str(out), *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.fixture(scope="session")
def dist(tmp_path_factory):
    """dist/ of this build: .deb and .rpm of both packages for amd64 and arm64, SHA256SUMS."""
    return dist_sh(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="session")
def version(dist):
    (deb,) = dist.glob("longhaul-probe_*_amd64.deb")
    return re.match(r"longhaul-probe_(.+)-1_amd64\.deb", deb.name).group(1)


@pytest.fixture(scope="session")
def newer_deb(tmp_path_factory, version):
    out = dist_sh(
        tmp_path_factory.mktemp("newer"),
        "--arch",
        "amd64",
        "--formats",
        "deb",
        "--packages",
        "longhaul-probe",
        version=version + "+upgrade",
    )
    (deb,) = out.glob("longhaul-probe_*_amd64.deb")
    return deb
