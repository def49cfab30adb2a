"""make check (scripts/check.sh) goes red on what it is there to catch: a misformatted Go file, a
vet finding, a ruff finding, a shellcheck finding, a stale generated file or unit. Each case runs the one
stage on a temporary copy of the few files it reads (the script, the Go module's files, the
contract and its generator, the linters' configs), green first, then with one fault added."""

import os
import pathlib
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
DESCRIPTION = yaml.safe_load((ROOT / "deploy/services.yaml").read_text())
COPIED = (
    "scripts/check.sh",
    "go.mod",
    "go.sum",
    "ruff.toml",
    ".shellcheckrc",
    "ingest/contract.yaml",
    "ingest/topics.yaml",
    "ingest/schemas",
    "ingest/gen",
    "ingest/contract",
    "flink-jobs/src/main/java/org/longhaul/flink/records/ContractNames.java",
    "flink-jobs/src/main/java/org/longhaul/flink/records/EventKind.java",
    "deploy/services.yaml",
    "deploy/gen",
    "internal/rendered",
    "scripts/stack/services.env",
    # the hand-written files a setting's value is rendered into (its rendered_in, its lists)
    *sorted(
        {p["file"] for s in DESCRIPTION["settings"] for p in s.get("rendered_in", [])}
        | {lst["file"] for lst in DESCRIPTION.get("lists", [])}
    ),
    # the rendered units, not install.sh (which shellcheck would read without the stack it sources)
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "deploy/systemd").glob("longhaul*")),
)
GENERATED = "flink-jobs/src/main/java/org/longhaul/flink/records/ContractNames.java"


@pytest.fixture
def tree(tmp_path):
    for name in COPIED:
        src, dst = ROOT / name, tmp_path / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*_test.go"))
        else:
            shutil.copy2(src, dst)
    # the venv's ruff, found where check.sh looks for it
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    return tmp_path


def check(tree, stage):
    env = {**os.environ, "PATH": "/usr/local/go/bin:" + os.environ["PATH"]}
    r = subprocess.run(
        ["bash", str(tree / "scripts/check.sh"), stage],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    return r.returncode, r.stdout + r.stderr


FAULTS = {
    # stage: (file added or appended to, text, what the report names)
    "gofmt": (
        "ingest/contract/zz_fault.go",
        "package contract\nfunc  fault( ) {}\n",
        "ingest/contract/zz_fault.go",
    ),
    "vet": (
        "ingest/contract/zz_fault.go",
        'package contract\n\nimport "fmt"\n\nfunc fault() { fmt.Printf("%d\\n", "text") }\n',
        "zz_fault.go",
    ),
    "ruff": ("scripts/fault.py", "import os\n", "F401"),
    "shellcheck": ("scripts/fault.sh", "#!/usr/bin/env bash\nrm -rf $1/cache\n", "SC2086"),
    "contract": (GENERATED, "// edited by hand\n", "ContractNames.java is stale"),
    "deploy": (
        "deploy/systemd/longhaul-kafka.service",
        "LimitNOFILE=1024\n",
        "longhaul-kafka.service is stale",
    ),
}


@pytest.mark.parametrize("stage", sorted(FAULTS))
def test_a_check_stage_is_green_on_the_tree_and_red_on_its_fault(tree, stage):
    rc, out = check(tree, stage)
    assert rc == 0, f"{stage} is red on an unchanged copy:\n{out}"
    path, text, named = FAULTS[stage]
    with open(tree / path, "a") as f:
        f.write(text)
    rc, out = check(tree, stage)
    assert rc != 0, f"{stage} stayed green with {path}:\n{out}"
    assert named in out, f"{stage} failed without naming {named}:\n{out}"
    assert f"1 of 1 stages failed: {stage}" in out


def test_an_unknown_stage_is_refused(tree):
    rc, out = check(tree, "lint-everything")
    assert rc == 2 and "no stage lint-everything" in out


# What builds and releases leave in the tree: make dist's rendered maintainer scripts, the stack's
# files, a developer's own ignored scratch folder (.git/info/exclude). None is the project's source.
STRAY = (
    "dist/build/scripts/longhaul-probe/preinst.sh",
    ".stack/run/demo/hook.sh",
    "flink-jobs/target/classes/gen.sh",
    "scratch/try.sh",
)


def test_build_output_and_ignored_files_do_not_turn_a_stage_red(tree):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    shutil.copy2(ROOT / ".gitignore", tree / ".gitignore")
    subprocess.run([*git, "init", "-q"], cwd=tree, check=True)
    (tree / ".git/info/exclude").write_text("scratch/\n")
    subprocess.run([*git, "add", "-A"], cwd=tree, check=True)
    for name in STRAY:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("#!/bin/sh\nfor u in one; do rm -rf $1/$u; done\n")
    rc, out = check(tree, "shellcheck")
    assert rc == 0, f"shellcheck judged build output or an ignored file:\n{out}"
    # a new file git would track is the project's, committed or not
    (tree / "scripts/new.sh").write_text("#!/bin/sh\nrm -rf $1/cache\n")
    rc, out = check(tree, "shellcheck")
    assert rc != 0 and "scripts/new.sh" in out and "SC2086" in out, out
