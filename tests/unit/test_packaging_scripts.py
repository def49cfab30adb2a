"""The packages' maintainer scripts as make dist renders them (packaging/render-scripts.sh): every
variable filled in and the rendered script clean by shellcheck, for each package. The templates'
own check (make check's shellcheck) cannot see what a one-word list turns into once rendered."""

import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RENDER = ROOT / "packaging/render-scripts.sh"
TEMPLATES = sorted(p.name for p in (ROOT / "packaging/scripts").glob("*.sh"))


def render(pkg, out):
    return subprocess.run(["bash", str(RENDER), pkg, str(out)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("pkg", ["longhaul-probe", "longhaul"])
def test_rendered_maintainer_scripts_are_complete_and_shellcheck_clean(pkg, tmp_path):
    r = render(pkg, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(p.name for p in tmp_path.glob("*.sh")) == TEMPLATES
    for script in tmp_path.glob("*.sh"):
        left = re.findall(r"\$\{[A-Z_]+\}", script.read_text())
        assert not left, f"{script.name}: {left} left unfilled"


def test_a_rendered_script_that_fails_shellcheck_fails_the_render(tmp_path):
    # the same renderer over a copy of the templates with one that lints clean as a template
    # (SC2086 disabled for the list) and not once rendered: a loop over one literal word
    copy = tmp_path / "packaging"
    (copy / "scripts").mkdir(parents=True)
    (copy / "render-scripts.sh").write_text(RENDER.read_text())
    (copy / "scripts/one.vars").write_text('SERVICE_USERS="only-one"\n')
    (copy / "scripts/preinst.sh").write_text(
        '#!/bin/sh\n# shellcheck disable=SC2086\nfor u in ${SERVICE_USERS}; do echo "$u"; done\n'
    )
    r = subprocess.run(["shellcheck", str(copy / "scripts/preinst.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
    r = subprocess.run(
        ["bash", str(copy / "render-scripts.sh"), "one", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1 and "SC2043" in r.stdout and "fail shellcheck" in r.stderr, r.stdout + r.stderr
