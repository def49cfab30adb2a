"""What the repository holds is source: no program built from it is committed. A bare `go build`
in a program's folder leaves its binary there (a0e8a8d committed 27 MB of operator/cmd/longhaul so);
`make build` writes to bin/, which is ignored."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]

# the first bytes of a program: ELF (Linux), Mach-O (macOS: 64-bit either byte order, universal)
PROGRAM_MAGIC = (
    b"\x7fELF",
    b"\xcf\xfa\xed\xfe",
    b"\xfe\xed\xfa\xcf",
    b"\xca\xfe\xba\xbe",
)


def programs(root, paths):
    """The paths among paths (relative to root) whose content starts like a built program."""
    found = []
    for path in paths:
        f = root / path
        if not f.is_file() or f.is_symlink():
            continue
        with f.open("rb") as fh:
            head = fh.read(4)
        if head.startswith(PROGRAM_MAGIC):
            found.append(path)
    return found


def tracked():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p]


def test_no_built_program_is_committed():
    assert programs(ROOT, tracked()) == []


def test_the_check_finds_a_built_program(tmp_path):
    (tmp_path / "tool").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(64))
    (tmp_path / "main.go").write_text("package main\n")
    (tmp_path / "empty").write_bytes(b"")
    assert programs(tmp_path, ["tool", "main.go", "empty", "gone"]) == ["tool"]
