"""What scripts/stack runs, read from the scripts themselves, for the tests that hold the systemd
units and docker-compose to it."""

import os
import pathlib
import re
import shlex
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def clean_env(**extra):
    """An environment without the caller's LONGHAUL_* settings (test-all.sh exports some)."""
    return {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8", **extra}


def stack_env(stack_dir, **extra):
    """clean_env for a stack in stack_dir whose cache is stack_dir/cache: never the user's shared
    cache (defaults.env's LONGHAUL_STACK_CACHE), which a test must not fill with stubs."""
    return clean_env(
        LONGHAUL_STACK_DIR=str(stack_dir),
        LONGHAUL_STACK_CACHE=str(pathlib.Path(stack_dir) / "cache"),
        **extra,
    )


def defaults():
    """scripts/stack/defaults.env as the stack sees it, with nothing overridden; paths in the
    checkout start with the word $ROOT."""
    out = subprocess.run(
        ["bash", "-c", "set -a; . scripts/stack/defaults.env; env -0"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        env=clean_env(LONGHAUL_ROOT="$ROOT"),
    ).stdout
    return dict(kv.split("=", 1) for kv in out.split("\0") if "=" in kv)


def stack(script, stack_dir):
    """Run a bash snippet with scripts/stack/lib.sh and the services loaded; its stdout."""
    return subprocess.run(
        ["bash", "-c", f". scripts/stack/lib.sh && load_services && {script}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        env=stack_env(stack_dir),
    ).stdout


def daemons():
    """{supervisord program: its command's words} of every start_daemon call in scripts/stack,
    ${LONGHAUL_*} expanded from defaults.env (the program is the name with / as -, supervise.sh,
    without an instance's ${suffix}).
    Words with a $ left are paths of the checkout's stack, which a host has elsewhere."""
    env = defaults()
    out = {}
    for script in sorted((ROOT / "scripts/stack").glob("*.sh")):
        text = re.sub(r"\\\n", " ", script.read_text())
        for m in re.finditer(r"^\s*(?:\w+=\S+\s+)*start_daemon\s+(.*)$", text, re.M):
            expanded = re.sub(r"\$\{(LONGHAUL_\w+)\}", lambda v: env.get(v.group(1), v.group(0)), m.group(1))
            name, _log, *cmd = shlex.split(expanded)
            # an instance's suffix (kafka${suffix}: kafka, kafka-2, ...) runs the same program
            out[re.sub(r"\$\{\w+\}$", "", name).replace("/", "-")] = cmd
    return out


# The stack's programs that deployments (docker-compose, deploy/systemd) do not run: the local
# notification sink is the demo and test stacks' stand-in for a site's SMTP server and webhook;
# a deployment's Alertmanager delivers to the site's own.
# ZooKeeper is the native stack's store for Flink's JobManager HA (LONGHAUL_FLINK_HA=zookeeper): a
# site points Flink at its own ZooKeeper ensemble, or uses Kubernetes HA (docs/operations.md).
LOCAL_ONLY = {"sink", "zookeeper"}
# A program's name where a deployment names it otherwise (compose service, longhaul-NAME.service).
DEPLOYED_AS = {"bridge": "alert-bridge"}
# Relays of a port into another program's network namespace, by that program: on a host a unit of
# their own (with a socket unit); in compose the service's published port, on Kubernetes its Service.
PORT_RELAYS = {"influxdb-http": "influxdb"}


def deployed():
    """{name in a deployment: its command's words} of every daemon the stack supervises that a
    deployment runs too (daemons() without LOCAL_ONLY, renamed by DEPLOYED_AS)."""
    return {DEPLOYED_AS.get(name, name): cmd for name, cmd in daemons().items() if name not in LOCAL_ONLY}
