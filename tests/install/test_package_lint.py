"""The packages as Debian's and EL's tools judge them: lintian (every override justified in
packaging/lintian/) and rpmlint (packaging/rpmlint.toml says why each accepted finding is), on the
amd64 and arm64 .deb and .rpm of both packages as `make dist` builds them; and what each holds."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_package_of_every_arch_is_built(dist):
    names = sorted(p.name.split("_")[0].split("-0")[0] + " " + p.suffix for p in dist.glob("*.*[bm]"))
    assert names == sorted(
        f"{p} {s}" for p in ("longhaul", "longhaul-probe") for s in (".deb", ".rpm") for _ in "ab"
    )
    sums = (dist / "SHA256SUMS").read_text()
    for pkg in [*dist.glob("*.deb"), *dist.glob("*.rpm")]:
        assert pkg.name in sums
    r = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=dist, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_lintian_passes(dist):
    # one run for all (each finding names its package): a third faster than one run each
    debs = [str(d) for d in sorted(dist.glob("*.deb"))]
    r = subprocess.run(["lintian", "--fail-on", "error,warning", *debs], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_rpmlint_passes(dist):
    rpms = [str(p) for p in sorted(dist.glob("*.rpm"))]
    r = subprocess.run(
        ["rpmlint", "-c", str(ROOT / "packaging/rpmlint.toml"), *rpms], capture_output=True, text=True
    )
    assert r.returncode == 0 and " 0 errors, 0 warnings" in r.stdout, r.stdout + r.stderr


def contents(deb):
    return subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout


def field(deb, name):
    return subprocess.run(
        ["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_agent_package_holds_what_a_host_needs(dist):
    (deb,) = dist.glob("longhaul-probe_*_arm64.deb")
    files = contents(deb)
    for path in (
        "./usr/bin/longhaul-probe",
        "./usr/lib/systemd/system/longhaul-probe.service",
        "./etc/longhaul/longhaul-probe.yaml",
        "./usr/share/man/man1/longhaul-probe.1.gz",
        "./usr/share/doc/longhaul-probe/copyright",
        "./usr/share/doc/longhaul-probe/changelog.Debian.gz",
    ):
        assert path in files, path
    assert field(deb, "Architecture") == "arm64"
    assert {"iperf3", "traceroute", "iputils-ping"} <= {d.strip() for d in field(deb, "Depends").split(",")}
    assert "iproute2" in field(deb, "Recommends")
    conffiles = subprocess.run(
        ["dpkg-deb", "-I", str(deb), "conffiles"], capture_output=True, text=True
    ).stdout
    assert "/etc/longhaul/longhaul-probe.yaml" in conffiles
    # the arm64 binary is an aarch64 ELF
    r = subprocess.run(
        f"dpkg-deb --fsys-tarfile {deb} | tar -xO ./usr/bin/longhaul-probe | head -c 20 | od -An -tx1",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert r.stdout.split()[18:20] == ["b7", "00"], r.stdout  # e_machine EM_AARCH64


def test_the_central_package_holds_the_cli_the_jar_and_the_daemons_units(dist):
    (deb,) = dist.glob("longhaul_*_amd64.deb")
    files = contents(deb)
    for path in (
        "./usr/bin/longhaul",
        "./usr/share/longhaul/longhaul-flink.jar",
        "./usr/lib/systemd/system/longhaul-job-keeper.service",
        "./usr/lib/systemd/system/longhaul-watchdog.service",
        "./usr/lib/systemd/system/longhaul-alert-bridge.service",
        "./etc/longhaul/longhaul.env",
        "./etc/longhaul/job.args",
        "./usr/share/longhaul/dashboards/mesh-overview.json",
        "./usr/share/longhaul/alerting/templates/longhaul.tmpl",
    ):
        assert path in files, path


def test_the_rpms_install_into_a_scratch_root(dist, tmp_path):
    """What an install can show without an EL9 machine: rpm unpacks both x86_64 packages into an
    empty root with their files, modes and config marks, and their scriptlets are the EL ones.
    (Dependencies and scriptlets are not run: there is no EL9 root here; docs/install.md.)"""
    root = tmp_path / "root"
    rpms = [str(p) for p in sorted(dist.glob("*.x86_64.rpm"))]
    subprocess.run(["rpm", "--root", str(root), "--initdb"], check=True)
    r = subprocess.run(
        ["rpm", "--root", str(root), "-i", "--nodeps", "--noscripts", "--notriggers", *rpms],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    installed = subprocess.run(["rpm", "--root", str(root), "-qa"], capture_output=True, text=True).stdout
    assert {line.split("-0")[0] for line in installed.split()} == {"longhaul", "longhaul-probe"}
    assert (root / "usr/bin/longhaul-probe").stat().st_mode & 0o777 == 0o755
    assert (root / "usr/share/longhaul/longhaul-flink.jar").stat().st_size > 1_000_000
    configs = subprocess.run(
        ["rpm", "--root", str(root), "-qac"], capture_output=True, text=True
    ).stdout.split()
    assert {
        "/etc/longhaul/longhaul-probe.yaml",
        "/etc/longhaul/longhaul.env",
        "/etc/longhaul/job.args",
    } <= set(configs)
    scripts = subprocess.run(["rpm", "-qp", "--scripts", rpms[1]], capture_output=True, text=True).stdout
    assert "systemctl try-restart longhaul-probe.service" in scripts and "deb-systemd" not in scripts
