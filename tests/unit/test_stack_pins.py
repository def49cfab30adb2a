"""What the native stack downloads is checked against committed hashes (scripts/stack/pins/):
every version defaults.env names has its pins, and the jars' check refuses a changed or unpinned
jar, naming it. (pip's own --require-hashes checks Flink's wheels; `go install` checks the Go-built
services against the Go checksum database.)"""

import hashlib
import re
import subprocess

import pytest
from stack_programs import ROOT, defaults, stack

PINS = ROOT / "scripts/stack/pins"


@pytest.mark.parametrize(
    "name,version_key,ext",
    [
        ("kafka", "LONGHAUL_KAFKA_VERSION", "sha256"),
        ("zookeeper", "LONGHAUL_ZOOKEEPER_VERSION", "sha256"),
        ("flink", "LONGHAUL_FLINK_VERSION", "txt"),
    ],
)
def test_every_downloaded_version_has_its_pins(name, version_key, ext):
    pins = PINS / f"{name}-{defaults()[version_key]}.{ext}"
    assert pins.is_file(), f"{pins.relative_to(ROOT)} missing: scripts/stack/pin.sh {name}"
    text = pins.read_text()
    if ext == "sha256":
        rows = text.splitlines()
        assert rows and all(re.fullmatch(r"[0-9a-f]{64}  [\w.+-]+\.jar", r) for r in rows), rows[:3]
    else:
        # pip's format: each package pinned to the version, followed by its files' hashes
        for pkg in ("apache-flink", "apache-flink-libraries"):
            block = re.search(
                rf"^{pkg}==([\d.]+) \\\n((?:    --hash=sha256:[0-9a-f]{{64}}(?: \\)?\n)+)", text, re.M
            )
            assert block and block[1] == defaults()[version_key], (pkg, text)


def jars(tmp_path, **contents):
    d = tmp_path / "libs"
    d.mkdir(exist_ok=True)
    for name, data in contents.items():
        (d / f"{name}.jar").write_bytes(data)
    return d


def pins_of(tmp_path, **contents):
    p = tmp_path / "x-1.sha256"
    p.write_text("".join(f"{hashlib.sha256(v).hexdigest()}  {k}.jar\n" for k, v in contents.items()))
    return p


def verify(tmp_path, libs, pins):
    return subprocess.run(
        ["bash", "-c", f". scripts/stack/lib.sh && verify_jars {libs} {pins}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_the_pinned_jars_pass(tmp_path):
    libs = jars(tmp_path, a=b"one", b=b"two")
    r = verify(tmp_path, libs, pins_of(tmp_path, a=b"one", b=b"two"))
    assert r.returncode == 0, r.stderr


def test_a_changed_jar_is_refused_by_name(tmp_path):
    libs = jars(tmp_path, a=b"one", b=b"tampered")
    r = verify(tmp_path, libs, pins_of(tmp_path, a=b"one", b=b"two"))
    assert r.returncode != 0
    assert "b.jar: FAILED" in r.stderr and "a.jar" not in r.stderr, r.stderr


def test_a_jar_nobody_pinned_is_refused_by_name(tmp_path):
    libs = jars(tmp_path, a=b"one", extra=b"x")
    r = verify(tmp_path, libs, pins_of(tmp_path, a=b"one"))
    assert r.returncode != 0 and "extra.jar" in r.stderr, r.stderr


def test_a_pinned_jar_missing_is_refused(tmp_path):
    libs = jars(tmp_path, a=b"one")
    r = verify(tmp_path, libs, pins_of(tmp_path, a=b"one", b=b"two"))
    assert r.returncode != 0 and "b.jar" in r.stderr, r.stderr


def test_a_version_without_pins_installs_nothing(tmp_path):
    with pytest.raises(subprocess.CalledProcessError) as e:
        stack("pins_file Kafka 0.0.1 sha256", tmp_path)
    assert "no pinned hashes for Kafka 0.0.1 (scripts/stack/pins/kafka-0.0.1.sha256)" in e.value.stderr
