"""The OCI images, built with podman from the .deb packages of `make dist` (scripts/images.sh) and
run here under podman on the host's network against the test stack, as the compose file's services
run them: the agent image (compose's collector) publishes samples to Kafka; the operator image
(compose's setup, job-keeper, watchdog and alert-bridge) answers --version and reads Flink and
InfluxDB with the reader's credential."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import uuid
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "lib"))
sys.path.insert(0, str(ROOT / "ingest"))

import kafka  # noqa: E402
from longhaul_contract import CONTRACT  # noqa: E402
from operator_cli import SECRETS, free_port, longhaul  # noqa: E402

# podman on this kernel: runc, cgroupfs, explicit ulimits (../shared/notes/stack-recipes.md)
PODMAN = ["podman", "--cgroup-manager=cgroupfs", "--runtime", "/usr/sbin/runc"]
RUN = ["run", "--network", "host", "--ulimit", "nofile=10000:10000", "--ulimit", "nproc=1000:1000"]


def podman(*args, check=True, timeout=120):
    r = subprocess.run([*PODMAN, *args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert r.returncode == 0, f"podman {' '.join(args)}: exit {r.returncode}\n{r.stdout}{r.stderr}"
    return r


@pytest.fixture(scope="module")
def images(dist, version):
    r = subprocess.run(
        ["bash", str(ROOT / "scripts/images.sh"), "--out", str(dist), "--no-save"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    tag = version.replace("~", "-").replace("+", "-")
    refs = f"localhost/longhaul-probe:{tag}", f"localhost/longhaul:{tag}"
    yield refs
    podman("rmi", *refs, check=False)  # the base image stays: the next run reuses it


def test_the_agent_image_publishes_to_the_stack(images, version, tmp_path):
    agent_image, _ = images
    # the agent's name is its src: its Kafka user may publish that src's samples only
    name = src = f"img-{uuid.uuid4().hex[:6]}.example.org"
    etc = tmp_path / "etc"
    etc.mkdir()
    snippet = longhaul("admin", "add-agent", name, "--password-file", str(etc / "kafka.password"))
    shutil.copy(SECRETS / "ca.crt", etc / "ca.crt")
    health = f"127.0.0.1:{free_port()}"
    (etc / "longhaul-probe.yaml").write_text(f"""src: {src}
{snippet}
health: {{listen: "{health}"}}
targets:
  - {{name: {src}-self, address: 127.0.0.1}}
probes:
  - {{id: rtt, kind: rtt, interval: 5s, jitter: 0s, params: {{count: 2, interval: 200ms, timeout: 1s}}}}
""")
    out = podman(*RUN, "--rm", agent_image, "longhaul-probe", "--version").stdout
    assert out.startswith(f"longhaul-probe {version} "), out

    consumer = kafka.consumer({"group.id": f"it-image-{name}", "auto.offset.reset": "earliest"})
    consumer.subscribe([CONTRACT.own_topic(CONTRACT.topic("raw.rtt"), "agent-" + name)])
    # the credential files become the image user's (:U), as a site chowns them to it
    podman(
        *RUN,
        "-d",
        "--name",
        name,
        "--cap-add",
        "NET_RAW",
        "-v",
        f"{etc}:/etc/longhaul:U",
        agent_image,
    )
    try:
        got = next(
            (
                v
                for m in kafka.records(consumer, kafka.within(60), poll_s=1)
                if (v := json.loads(m.value())).get("src") == src
            ),
            None,
        )
        logs = podman("logs", name, check=False)
        assert got is not None, (
            f"no rtt sample of {src} in Kafka within 60 s\n{logs.stdout[-3000:]}{logs.stderr[-3000:]}"
        )
        assert got["received"] > 0, got
        assert (
            podman("exec", name, "longhaul-probe", "status", "--health", health, check=False).returncode == 0
        )
        # SIGTERM: the agent flushes and exits by itself, within its stop timeout
        podman("stop", "--time", "30", name)
        state = json.loads(podman("inspect", name).stdout)[0]["State"]
        assert state["ExitCode"] in (0, 143), state
    finally:
        podman("rm", "-f", name, check=False)
        consumer.close()
        longhaul("admin", "remove-agent", name, "--delete-topics", check=False)


def test_the_operator_image_reads_the_stack(images, version, tmp_path):
    _, operator_image = images
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    for f in ("ca.crt", "influx-reader.password", "flink-rest.pem"):
        shutil.copy(SECRETS / f, secrets / f)
    env = {
        "LONGHAUL_INFLUX": os.environ.get("LONGHAUL_INFLUX", "https://127.0.0.1:8086"),
        "LONGHAUL_INFLUX_CA": "/etc/longhaul/secrets/ca.crt",
        "LONGHAUL_INFLUX_USER": "reader",
        "LONGHAUL_INFLUX_PASSWORD_FILE": "/etc/longhaul/secrets/influx-reader.password",
        "LONGHAUL_FLINK": os.environ.get("LONGHAUL_FLINK", "https://127.0.0.1:8081"),
        "LONGHAUL_FLINK_CERT": "/etc/longhaul/secrets/flink-rest.pem",
    }
    flags = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
    run = [*RUN, "--rm", *flags, "-v", f"{secrets}:/etc/longhaul/secrets:U", operator_image]
    assert podman(*run, "longhaul", "--version").stdout.startswith(f"longhaul {version} ")
    # the job jar it carries says which build it is
    jar = tmp_path / "job.jar"
    with open(jar, "wb") as f:
        subprocess.run(
            [*PODMAN, *run, "cat", "/usr/share/longhaul/longhaul-flink.jar"],
            stdout=f,
            check=True,
            timeout=120,
        )
    with zipfile.ZipFile(jar) as z:
        assert f"version={version}\n" in z.read("longhaul/version.properties").decode()
    jobs = podman(*run, "longhaul", "job", "list")
    assert jobs.returncode == 0
    alerts = podman(*run, "longhaul", "alerts", "--since", "1h")
    assert alerts.returncode == 0 and alerts.stdout, alerts.stderr
