"""After the end-to-end story (the demo's story, run by test_scenarios.py before this file), no
secret is in any log: every password of the stack's secrets folder and of the testbed's agents,
and no private key, in no log or output file of any service, agent or testbed process."""

import os
import pathlib

STACK = pathlib.Path(
    os.environ.get("LONGHAUL_STACK_DIR", pathlib.Path(__file__).resolve().parents[2] / ".stack")
)
SECRETS = pathlib.Path(os.environ.get("LONGHAUL_SECRETS_DIR", STACK / "run" / "secrets"))
LOG_SUFFIXES = (".log", ".out", ".txt")
# the services' stores (run/<service>/data): Kafka's segments are named *.log but hold the records,
# gigabytes after a day of benchmarks, and no process writes its messages there
STORES = ("data", "wal", "meta")


def secrets():
    """Every password the run made: the services' and each testbed agent's."""
    files = list(SECRETS.glob("**/*.password")) + list((STACK / "run").glob("testbed-*/*.password"))
    values = {f: f.read_text().strip() for f in files}
    return {f: v for f, v in values.items() if len(v) >= 8}


def logs():
    """Every log or output file under the stack's run folder, the secrets folder and the
    services' stores aside."""
    run = STACK / "run"
    for path in run.rglob("*"):
        if (
            path.is_file()
            and SECRETS not in path.parents
            and not set(path.relative_to(run).parts[1:-1]) & set(STORES)
            and (path.suffix in LOG_SUFFIXES or "log" in path.parent.name)
        ):
            yield path


def test_no_password_or_private_key_is_in_any_log():
    found = secrets()
    assert len(found) >= 7, f"expected the services' and agents' passwords, found {sorted(map(str, found))}"
    scanned, leaks = 0, []
    for path in logs():
        text = path.read_bytes().decode("utf-8", "replace")
        scanned += 1
        leaks += [f"{path}: the password of {f.name}" for f, v in found.items() if v in text]
        if "PRIVATE KEY-----" in text:
            leaks.append(f"{path}: a private key")
    assert scanned >= 10, f"only {scanned} log files under {STACK / 'run'}"
    assert not leaks, "\n".join(leaks)
