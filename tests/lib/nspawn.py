"""A clean Debian 12 machine booted with systemd, for the install tier: a pristine copy of the
root that scripts/debian-root.sh caches (built on first use), booted with systemd-nspawn on the
host's network, so a service inside reaches the stack on the host's 127.0.0.1.

    with nspawn.Machine(log_dir=tmp_path) as m:
        m.copy_in(deb, "/root/longhaul-probe.deb")
        m.run("apt-get update && apt-get install -y /root/longhaul-probe.deb")
        m.run(["systemctl", "is-active", "longhaul-probe"])

Leaving the block powers the machine off (killing it after stop_timeout) and deletes its root,
also when the block raised. Should this process die without leaving the block, the kernel sends
systemd-nspawn SIGTERM (setpriv --pdeathsig), which shuts the machine down: no container outlives
the test; only its folder under the temporary directory may remain. Needs root."""

import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEBIAN_ROOT = ROOT / "scripts" / "debian-root.sh"
# what commands inside see: the guest's own PATH, never the host's environment
GUEST_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
    "DEBIAN_FRONTEND": "noninteractive",
}
# Mounted as tmpfs inside the booted machine: copy_in refuses them.
TMPFS = ("/tmp/", "/run/", "/dev/shm/")
# No --private-network: the machine shares the host's network, 127.0.0.1 included.
NSPAWN = [
    "systemd-nspawn",
    "--quiet",
    "--boot",
    "--register=no",  # no machined on this host (its PID 1 is no systemd)
    "--keep-unit",  # nor a host systemd to make a scope unit
    "--console=read-only",  # the console's output into the log, no input
    "--setenv=SYSTEMD_COLORS=0",  # a log without escape codes
]
DIR_PREFIX = "machine-"  # the copies' folders: machine-longhaul-<id>-<random>, with an owner file
TAR_FLAGS = ["--numeric-owner", "--xattrs", "--xattrs-include=*"]  # as debian-root.sh writes it


class MachineError(RuntimeError):
    """The machine did not unpack, boot or stop as it should; the message says what it saw."""


class CommandFailed(MachineError):
    """A command inside exited non-zero; `result` is its CompletedProcess."""

    def __init__(self, cmd, result):
        self.result = result
        super().__init__(
            f"inside the machine: {cmd!r} exited {result.returncode}\n"
            f"stdout (tail):\n{_tail(result.stdout)}\nstderr (tail):\n{_tail(result.stderr)}"
        )


def _tail(text, lines=30):
    return "\n".join((text or "").splitlines()[-lines:]) or "(empty)"


def root_tarball(timeout=900):
    """The cached Debian 12 root (scripts/debian-root.sh prints its path; builds it if missing)."""
    r = subprocess.run(["bash", str(DEBIAN_ROOT)], capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise MachineError(f"scripts/debian-root.sh exited {r.returncode}:\n{_tail(r.stderr)}")
    return pathlib.Path(r.stdout.strip().splitlines()[-1])


class Machine:
    """A booted copy of the Debian 12 root, as a context manager (see the module's docstring).

    Attributes once booted: name (systemd-nspawn's --machine; also in the folder's and the
    log's names), root (the copy's folder on the host), console_log, pid (of
    systemd-nspawn), leader (the machine's PID 1, its systemd), state ("running" or "degraded"),
    failed_units (when degraded), timings (seconds: unpack, boot to ready, stop)."""

    def __init__(
        self, tarball=None, *, log_dir=None, boot_timeout=60, stop_timeout=10, workdir=None, capabilities=()
    ):
        self.tarball = pathlib.Path(tarball) if tarball else None
        # beyond nspawn's default set, e.g. CAP_NET_ADMIN, without which the machine's systemd
        # cannot bring up a PrivateNetwork= namespace's loopback (a host's systemd can)
        self.capabilities = list(capabilities)
        self.log_dir = pathlib.Path(log_dir) if log_dir else None
        self.boot_timeout = boot_timeout
        self.stop_timeout = stop_timeout
        self.workdir = workdir
        self.name = "longhaul-" + uuid.uuid4().hex[:8]  # nspawn's machine name: its own /run state
        self.dir = self.root = self.console_log = None
        self.process = self.leader = None
        self.state, self.failed_units, self.timings = None, [], {}
        self._log = None

    @property
    def pid(self):
        return self.process.pid if self.process else None

    def __enter__(self):
        _admission_check()
        try:
            self._unpack()
            self._boot()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def _unpack(self):
        tarball = self.tarball or root_tarball()
        t0 = time.monotonic()
        _remove_stale(self.workdir)
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{self.name}-", dir=self.workdir))
        (self.dir / "owner").write_text(_identity(os.getpid()))
        self.root = self.dir / "root"
        self.root.mkdir()
        r = subprocess.run(
            ["tar", "-C", str(self.root), *TAR_FLAGS, "-xpf", str(tarball)], capture_output=True, text=True
        )
        if r.returncode != 0:
            raise MachineError(f"unpacking {tarball}: tar exited {r.returncode}: {_tail(r.stderr)}")
        self.timings["unpack"] = round(time.monotonic() - t0, 1)

    def _boot(self):
        log_dir = self.log_dir or self.dir
        log_dir.mkdir(parents=True, exist_ok=True)
        self.console_log = log_dir / f"{self.name}-console.log"
        self._log = open(self.console_log, "wb")  # closed by stop()
        t0 = time.monotonic()
        # setpriv: systemd-nspawn gets SIGTERM (an orderly shutdown) should this process die
        self.process = subprocess.Popen(
            [
                "setpriv",
                "--pdeathsig",
                "TERM",
                *NSPAWN,
                *(f"--capability={c}" for c in self.capabilities),
                "-D",
                str(self.root),
                f"--machine={self.name}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        with open(self.dir / "owner", "a") as owner:
            owner.write("\n" + _identity(self.process.pid))
        deadline = t0 + self.boot_timeout
        self.leader = self._await_leader(deadline)
        self.state = self._await_ready(deadline)
        self.timings["boot"] = round(time.monotonic() - t0, 1)
        if self.state == "degraded":
            units = self.run(["systemctl", "--failed", "--plain", "--no-legend"], check=False).stdout
            self.failed_units = [line.split()[0] for line in units.splitlines() if line.strip()]
            warnings.warn(f"{self.name} booted degraded, failed units: {self.failed_units}", stacklevel=3)

    def _await_leader(self, deadline):
        """The machine's PID 1: the child of systemd-nspawn once it has become systemd."""
        while time.monotonic() < deadline:
            self._check_alive("while starting")
            for child in _children(self.process.pid):
                if _comm(child) == "systemd":
                    return child
            time.sleep(0.1)
        raise self._boot_error("no systemd started in the machine")

    def _await_ready(self, deadline):
        """Waits until the machine's systemd has finished booting; its state then."""
        out = ""
        while time.monotonic() < deadline:
            self._check_alive("while booting")
            try:
                r = self.run(
                    ["systemctl", "is-system-running", "--wait"],
                    check=False,
                    timeout=max(1, deadline - time.monotonic()),
                )
            except MachineError:
                break
            out = _tail(r.stdout.strip() or r.stderr.strip(), 1)
            if out in ("running", "degraded"):
                return out
            if out in ("maintenance", "stopping"):
                raise self._boot_error(f"systemd is {out}")
            # too early: no bus yet ("Failed to connect to bus"), or "offline" (systemctl asked
            # before PID 1's manager answers: seen once in make test on a loaded machine, the
            # console showing a normal boot); the deadline still bounds the wait
            time.sleep(0.2)
        raise self._boot_error(f"not ready after {self.boot_timeout} s (last: {out!r})")

    def _check_alive(self, when):
        if self.process.poll() is not None:
            raise self._boot_error(f"systemd-nspawn exited {self.process.returncode} {when}")

    def _boot_error(self, what):
        kept = f" ({self.console_log})" if self.log_dir else ""  # else it went with the root
        return MachineError(f"{self.name}: {what}; the console{kept} said:\n{self.console_tail()}")

    def console_tail(self, lines=40):
        """The last lines the machine's console printed."""
        try:
            # the console is a pty: lines end in \r\n
            text = self.console_log.read_bytes().decode(errors="replace").replace("\r", "")
        except (OSError, AttributeError):
            return "(no console log)"
        return _tail(text, lines)

    def run(self, cmd, check=True, timeout=120, env=None, input=None):
        """Runs cmd (a list, or a string for /bin/sh -c) inside the machine, in all the
        namespaces of its PID 1, with GUEST_ENV (plus env); returns the CompletedProcess (text).
        check: raise CommandFailed on a non-zero exit. A timeout raises MachineError; the
        command may run on until the machine stops (util-linux 2.38's nsenter has no --kill-child)."""
        if self.leader is None:
            raise MachineError("the machine is not running")
        argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else [str(a) for a in cmd]
        nsenter = ["nsenter", "-t", str(self.leader), "-a", "-r", "-w", "--"]
        try:
            r = subprocess.run(
                nsenter + argv,
                env={**GUEST_ENV, **(env or {})},
                input=input,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout
            raise MachineError(
                f"inside the machine: {cmd!r} still running after {timeout} s:\n{_tail(out)}"
            ) from e
        if check and r.returncode != 0:
            raise CommandFailed(cmd, r)
        return r

    def copy_in(self, host_path, guest_path):
        """Copies a file or folder of the host to guest_path (absolute) in the machine, with its
        mode, creating the folders it needs; returns guest_path."""
        host_path = pathlib.Path(host_path)
        if str(guest_path).startswith(TMPFS):
            # written into the root on the host, it would lie hidden under the booted guest's tmpfs
            raise MachineError(f"{guest_path}: a tmpfs inside the running machine; copy to /root or /var/tmp")
        target = self.root / str(guest_path).lstrip("/")
        # Resolved on the host, an absolute symlink of the guest (/var/run -> /run) leads out of
        # the root: check the deepest folder that exists before creating any below it.
        folder = target.parent
        while not folder.exists() and not folder.is_symlink():
            folder = folder.parent
        if not folder.resolve().is_relative_to(self.root.resolve()):
            raise MachineError(f"{guest_path}: {folder} leads out of the machine's root (a symlink)")
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()  # replaced, as install(1) does, never written through
        if host_path.is_dir():
            shutil.copytree(host_path, target, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy2(host_path, target)
        return str(guest_path)

    def stop(self):
        """Powers the machine off (SIGRTMIN+4 to its systemd), kills it if it is not down within
        stop_timeout, and removes its root. Safe to call twice."""
        t0 = time.monotonic()
        if self.process and self.process.poll() is None:
            if self.leader and _comm(self.leader) == "systemd":
                _signal(self.leader, signal.SIGRTMIN + 4)  # systemd's "poweroff"
            else:
                _signal(self.process.pid, signal.SIGTERM)  # nspawn: orderly shutdown of its PID 1
            try:
                self.process.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                warnings.warn(
                    f"{self.name} not down {self.stop_timeout} s after poweroff: killed", stacklevel=2
                )
                if self.leader:
                    _signal(self.leader, signal.SIGKILL)  # a PID namespace's init: all of it dies
                _signal(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        if self.process:
            self.timings.setdefault("stop", round(time.monotonic() - t0, 1))
        self.leader = None
        if self._log:
            self._log.close()
            self._log = None
        if self.dir and self.dir.exists():
            _unmount_under(self.dir)
            shutil.rmtree(self.dir)


def _admission_check():
    if os.geteuid() != 0:
        raise MachineError("booting a machine with systemd-nspawn needs root")
    missing = [tool for tool in ("systemd-nspawn", "nsenter", "setpriv", "tar") if not shutil.which(tool)]
    if missing:
        raise MachineError(f"missing {', '.join(missing)}: bash scripts/prereqs.sh")


def _identity(pid):
    """PID and start time of a live process (a PID alone may be reused), or None (also for a
    zombie: dead, and maybe never reaped here, where PID 1 is not an init)."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else f"{pid} {fields[19]}"


def _remove_stale(workdir):
    """Removes the copies of machines whose test process and systemd-nspawn are both gone (a test
    killed with SIGKILL leaves its folder; its machine is shut down by setpriv's --pdeathsig)."""
    for folder in pathlib.Path(workdir or tempfile.gettempdir()).glob(DIR_PREFIX + "longhaul-*"):
        try:
            owners = (folder / "owner").read_text().split("\n")
        except OSError:
            continue  # not ours, or being created
        if any(line and _identity(line.split()[0]) == line for line in owners):
            continue
        _unmount_under(folder)
        shutil.rmtree(folder, ignore_errors=True)


def _children(pid):
    out = []
    for task in pathlib.Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out += [int(p) for p in task.read_text().split()]
        except OSError:
            pass
    return out


def _comm(pid):
    try:
        return pathlib.Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def _signal(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _unmount_under(folder):
    """Nothing should be mounted below the root on the host (nspawn mounts in its own namespace);
    if something is, unmount it rather than let rmtree descend into it."""
    prefix = str(folder.resolve()) + "/"
    mounts = [line.split()[4] for line in pathlib.Path("/proc/self/mountinfo").read_text().splitlines()]
    for mnt in sorted((m for m in mounts if (m + "/").startswith(prefix)), reverse=True):
        subprocess.run(["umount", "-l", mnt], check=False)
