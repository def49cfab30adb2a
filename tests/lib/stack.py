"""The native stack's processes as the tests see them, through scripts/stack (lib.sh and the
service files): run one of its functions, read a supervised process's PID, kill it, time its
return. Every process runs under the stack's supervisord (scripts/stack/supervise.sh)."""

import os
import pathlib
import shlex
import signal
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(func, env=None, check=True, timeout=300):
    """Runs shell code after sourcing scripts/stack/lib.sh and every service file."""
    return subprocess.run(
        ["bash", "-c", f". scripts/stack/lib.sh && load_services && {func}"],
        cwd=ROOT,
        env=env or os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=check,
    )


def pid(name, env=None):
    """The PID of supervised process `name` (e.g. kafka, flink/taskmanager), or None."""
    r = run(f"svc_pid {name}", env, check=False)
    return int(r.stdout.strip()) if r.returncode == 0 and r.stdout.strip() else None


def healthy(svc, env=None):
    """True when the service's health function passes (kafka, influxdb, flink, telegraf, job)."""
    return run(f"health_{svc}", env, check=False).returncode == 0


def restarts(name, env=None):
    """How often supervisord has respawned `name` after it died."""
    return int(run(f"svc_restarts {name}", env).stdout.strip())


def kill9(name, healthy_when, timeout_s=240, env=None, explain=None):
    """kill -9 the supervised process `name`; waits until supervisord has started a new one and
    then until healthy_when() holds. Returns (seconds to respawn, seconds to healthy). When it
    never holds, the error carries explain() (what was and was not back) if given."""
    old = pid(name, env)
    assert old, f"{name} is not running"
    t0 = time.time()
    os.kill(old, signal.SIGKILL)
    respawn = None
    while time.time() - t0 < timeout_s:
        new = pid(name, env)
        if respawn is None and new and new != old:
            respawn = time.time() - t0
        if respawn is not None and healthy_when():
            return respawn, time.time() - t0
        time.sleep(0.5)
    why = f": {explain()}" if explain else ""
    raise AssertionError(f"{name}: respawned after {respawn} s, not healthy {timeout_s} s after kill -9{why}")


def _each_log(svc, show, env, title=""):
    """Runs shell code `show` on each of the service's logs (logs_<svc> in its service file) that
    exists, as $f, after a "== <title><file>" header; returns what it printed."""
    r = run(
        f'for f in $(logs_{svc}); do [ -f "$f" ] && {{ echo "== {title}$f"; {show}; }}; done',
        env,
        check=False,
    )
    return r.stdout.strip() or f"(no log of {svc}: {r.stderr.strip()[-200:]})"


def log_tail(svc, lines=20, env=None, besides=None):
    """The last lines of each of the service's logs, for an error message: what a test saw the
    service say when it did not come back. Lines containing `besides` (a fixed string: a message
    repeated by the thousand) are counted, not shown."""
    if not besides:
        return _each_log(svc, f'tail -n {int(lines)} "$f"', env)
    q = shlex.quote(besides)
    return _each_log(
        svc,
        f'grep -vF -- {q} "$f" | tail -n {int(lines)}; echo "($(grep -cF -- {q} "$f") lines with {q})"',
        env,
    )


def log_errors(svc, lines=10, env=None):
    """The last ERROR and WARN lines of each of the service's logs: what a service that looks
    up but misbehaves (a broker refusing every credential) said when it started."""
    return _each_log(
        svc, f'grep -E " (ERROR|WARN|FATAL) " "$f" | tail -n {int(lines)}', env, title=f"{svc} errors: "
    )
