"""The native stack's folder is root's alone (scripts/stack/up.sh): Kafka's logs, InfluxDB's
shards, Flink's checkpoints and the secrets hold every site's results and the job's state, and no
other local user lists or reads them, whatever each file's own mode."""

import subprocess

from alertmanager import STACK

RUN = STACK / "run"


def as_nobody(*argv):
    return subprocess.run(
        ["runuser", "-u", "nobody", "--", *argv], capture_output=True, text=True, timeout=30
    )


def test_the_run_folder_is_roots_alone():
    assert RUN.stat().st_uid == 0 and RUN.stat().st_mode & 0o777 == 0o700, oct(RUN.stat().st_mode)


def test_another_local_user_reads_nothing_of_it():
    for argv in (
        ["ls", str(RUN / "kafka")],
        ["cat", str(RUN / "kafka" / "server.properties")],
        ["ls", str(RUN / "flink" / "checkpoints")],
        ["ls", str(RUN / "influxdb")],
    ):
        r = as_nobody(*argv)
        assert r.returncode != 0 and "Permission denied" in r.stderr, (argv, r.returncode, r.stdout[:200])
