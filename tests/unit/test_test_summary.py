"""scripts/test-summary.py: the one 'N passed, N failed' line, the stage times, the slowest tests,
and the failures of a `go test -json` stream without the noise of passing tests' output."""

import importlib.util
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("test_summary", ROOT / "scripts/test-summary.py")
summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summary)


def gojson(path, events):
    path.write_text("\n".join(json.dumps(e) for e in events) + "\nnot json\n")
    return path


def test_only_failed_tests_and_failed_packages_are_reported_with_their_output(tmp_path, capsys):
    stream = gojson(
        tmp_path / "go.gojson",
        [
            {
                "Action": "output",
                "Package": "p",
                "Test": "TestOk",
                "Output": "SASL_AUTHENTICATION_FAILED seen\n",
            },
            {"Action": "pass", "Package": "p", "Test": "TestOk", "Elapsed": 1.5},
            {"Action": "output", "Package": "p", "Test": "TestBad", "Output": "want 3, got 2\n"},
            {"Action": "fail", "Package": "p", "Test": "TestBad", "Elapsed": 0.5},
            {"Action": "output", "Package": "q", "Output": "panic: boom\n"},
            {"Action": "fail", "Package": "q"},
        ],
    )
    summary.go_failures(stream)
    out = capsys.readouterr().out
    assert out == "FAIL p TestBad\nwant 3, got 2\nFAIL q (the package)\npanic: boom\n"


def test_the_summary_has_stage_times_the_slowest_tests_and_one_total_line(tmp_path, capsys):
    gojson(
        tmp_path / "go.gojson",
        [
            {"Action": "pass", "Package": "p", "Test": "TestSlow", "Elapsed": 9.0},
            {"Action": "pass", "Package": "p", "Test": "TestSlow/sub", "Elapsed": 9.0},
            {"Action": "fail", "Package": "p", "Test": "TestBad", "Elapsed": 0.5},
        ],
    )
    (tmp_path / "pytest-unit.xml").write_text(
        '<testsuites><testsuite tests="2" failures="0" errors="0" skipped="1">'
        '<testcase classname="t" name="a" time="3.0"/><testcase classname="t" name="b" time="0.1"/>'
        "</testsuite></testsuites>"
    )
    # the machine's CPU busy during a stage (a fourth column since 2026-12-05)
    (tmp_path / "stages.tsv").write_text("Go unit tests\t70\tok\t85\nPython unit tests\t50\tFAILED\n")
    assert summary.main(tmp_path) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "     70 s   85 %  ok      Go unit tests" in lines, lines
    assert "     50 s      -  FAILED  Python unit tests" in lines
    assert "    120 s  in all (2.0 min)" in lines
    slow = lines[lines.index("The 4 slowest tests:") + 1 :][:2]
    assert slow == ["      9.0 s  p.TestSlow", "      3.0 s  t.a"]
    # subtests count as tests (go test -json reports each), as before
    assert lines[-1] == "3 passed, 1 failed, 1 skipped"


def test_stages_side_by_side_add_up_to_more_than_the_wall_time_it_gives(tmp_path, capsys):
    (tmp_path / "stages.tsv").write_text("Install\t250\tok\t90\nCluster\t500\tok\t95\n")
    (tmp_path / "wall_s").write_text("520\n")
    assert summary.main(tmp_path) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "    520 s  wall (8.7 min; the stages add up to 750 s, some ran side by side)" in lines, lines
    (tmp_path / "wall_s").write_text("760\n")  # one after the other, and the run's own seconds
    summary.main(tmp_path)
    assert "    760 s  wall (12.7 min; the stages add up to 750 s)" in capsys.readouterr().out.splitlines()
