"""What a test does as the operator of the stack it runs on: the CLI (`bin/longhaul`, failing the
test when it fails), the stack's secrets folder, and a free port on 127.0.0.1 for an agent's
health endpoint."""

import os
import pathlib
import socket
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "bin" / "longhaul"
SECRETS = pathlib.Path(os.environ.get("LONGHAUL_SECRETS_DIR", ROOT / ".stack" / "run" / "secrets"))


def longhaul(*args, check=True):
    """bin/longhaul ARGS; its stdout (the test fails on a non-zero exit when check)."""
    r = subprocess.run([str(CLI), *args], capture_output=True, text=True, timeout=120)
    assert not check or r.returncode == 0, f"longhaul {' '.join(args)}: {r.stderr}"
    return r.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
