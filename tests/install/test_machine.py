"""The install tier's clean machine (tests/lib/nspawn.py) on its own, before any package is put
in it: the cached Debian 12 root boots with systemd; apt inside installs from the mirror and
resolves dependencies; a service inside reaches a port on the host's 127.0.0.1, as an installed
agent's samples will reach the stack's Kafka; and leaving the machine, also after a failure,
leaves no process, mount or root behind. Needs root (bash scripts/prereqs.sh installs the tools).

    .venv/bin/python -m pytest -q tests/install
"""

import contextlib
import pathlib
import socket
import sys
import threading

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
import nspawn


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    with nspawn.Machine(log_dir=tmp_path_factory.mktemp("machine")) as m:
        yield m


def test_boots_debian_12_with_systemd_as_pid_1(machine):
    assert machine.state in ("running", "degraded"), machine.console_tail()
    state = machine.run(["systemctl", "is-system-running"], check=False).stdout.strip()
    assert state in ("running", "degraded"), f"{state}; failed units: {machine.failed_units}"
    assert machine.run("cat /proc/1/comm").stdout.strip() == "systemd"
    os_release = machine.run("cat /etc/os-release").stdout
    assert "VERSION_CODENAME=bookworm" in os_release


def test_apt_installs_a_package_and_its_dependencies_from_the_mirror(machine):
    machine.run("apt-get update -q", timeout=180)
    machine.run("apt-get install -y -q iperf3", timeout=300)
    # libiperf0 is iperf3's dependency, absent from the root: apt resolved it
    status = machine.run(["dpkg-query", "-W", "-f=${db:Status-Abbrev}", "iperf3", "libiperf0"]).stdout
    assert status == "ii ii "
    assert machine.run(["iperf3", "--version"]).stdout.startswith("iperf 3.")


def test_a_service_inside_reaches_the_hosts_loopback(machine):
    received = {}
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(30)
        port = server.getsockname()[1]

        def accept():
            conn, _ = server.accept()
            with conn:
                received["line"] = conn.makefile().readline()

        listener = threading.Thread(target=accept)
        listener.start()
        # a transient service of the machine's systemd, not just a process entered from outside
        service = ["systemd-run", "--wait", "--collect", "--quiet", "--unit=reach-host", "--"]
        machine.run([*service, "/bin/bash", "-c", f"echo hello-from-guest >/dev/tcp/127.0.0.1/{port}"])
        listener.join(30)
    assert received.get("line") == "hello-from-guest\n"


def test_copy_in_puts_a_file_where_the_machine_runs_it(machine, tmp_path):
    script = tmp_path / "hello.sh"
    script.write_text("#!/bin/sh\necho hello from $(hostname)\n")
    script.chmod(0o755)
    assert machine.copy_in(script, "/opt/longhaul-test/hello.sh") == "/opt/longhaul-test/hello.sh"
    assert machine.run("/opt/longhaul-test/hello.sh").stdout == "hello from longhaul-debian12\n"
    # /tmp is a tmpfs inside: a copy written under it on the host would be hidden from the guest
    with pytest.raises(nspawn.MachineError, match="tmpfs"):
        machine.copy_in(script, "/tmp/hello.sh")
    assert machine.run("test ! -e /tmp/hello.sh", check=False).returncode == 0


def test_a_failing_command_reports_its_exit_code_and_output(machine):
    with pytest.raises(nspawn.CommandFailed) as failed:
        machine.run("echo to-stdout; echo to-stderr >&2; exit 3")
    assert failed.value.result.returncode == 3
    message = str(failed.value)
    assert "exited 3" in message and "to-stdout" in message and "to-stderr" in message


def nspawn_processes_on(root):
    """PIDs of every systemd-nspawn whose command line names root."""
    pids = []
    for cmdline in pathlib.Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"systemd-nspawn" in a for a in args) and str(root).encode() in args:
            pids.append(int(cmdline.parent.name))
    return pids


def alive(pid):
    """Whether pid runs (a zombie does not)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("body", ["returns", "raises"])
def test_leaving_the_machine_leaves_nothing_behind(body, tmp_path):
    class BodyFailed(Exception):
        pass

    m = nspawn.Machine(log_dir=tmp_path)
    with pytest.raises(BodyFailed) if body == "raises" else contextlib.nullcontext():
        with m:
            root, leader = m.root, m.leader
            assert nspawn_processes_on(root) == [m.pid] and alive(leader)
            if body == "raises":
                raise BodyFailed()
    assert m.process.returncode is not None
    assert not nspawn_processes_on(root) and not alive(leader)
    assert not m.dir.exists()
    assert str(m.dir) not in pathlib.Path("/proc/self/mountinfo").read_text()
    assert "Powering off." in m.console_tail(), "powered off, not killed"
