#!/usr/bin/env python3
"""Adds up test results of every language into one 'N passed, N failed' line.

Reads tests/out/: `go test -json` streams (*.gojson) and JUnit XML reports (*.xml from
pytest and Maven Surefire/Failsafe). Prints each stage's time (stages.tsv, written by
scripts/test-all.sh), the 15 slowest tests, a line per suite, then the total.
    test-summary.py [DIR]               the summary of DIR (tests/out)
    test-summary.py --failures FILE     the failed tests of one `go test -json` stream
"""

import collections
import json
import pathlib
import sys
import xml.etree.ElementTree as ET


def go_counts(path):
    passed = failed = skipped = 0
    for line in path.read_text(errors="replace").splitlines():
        try:
            ev = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not ev.get("Test"):
            continue
        action = ev.get("Action")
        passed += action == "pass"
        failed += action == "fail"
        skipped += action == "skip"
    return passed, failed, skipped


def go_failures(path, tail=40):
    """Each failed test of a `go test -json` stream with the last lines it printed, and each
    package that failed without a failing test (a build error, a panic, a timeout)."""
    outputs = collections.defaultdict(lambda: collections.deque(maxlen=tail))
    for line in path.read_text(errors="replace").splitlines():
        try:
            ev = json.loads(line)
        except json.JSONDecodeError:
            continue
        key = (ev.get("Package"), ev.get("Test"))
        if ev.get("Action") == "output":
            outputs[key].append(ev.get("Output", ""))
        elif ev.get("Action") == "fail":
            print("FAIL", ev.get("Package"), ev.get("Test") or "(the package)")
            print("".join(outputs[key]), end="")


def go_times(path):
    """(seconds, name) of each top-level test of a `go test -json` stream."""
    for line in path.read_text(errors="replace").splitlines():
        try:
            ev = json.loads(line)
        except json.JSONDecodeError:
            continue
        test = ev.get("Test") or ""
        if ev.get("Action") in ("pass", "fail") and test and "/" not in test:
            yield float(ev.get("Elapsed") or 0), f"{ev['Package']}.{test}"


def junit_times(path):
    """(seconds, name) of each test case of a JUnit XML report."""
    for case in ET.parse(path).getroot().iter("testcase"):
        yield float(case.get("time") or 0), f"{case.get('classname', '')}.{case.get('name', '')}"


def stage_times(out):
    path = out / "stages.tsv"
    if not path.exists():
        return
    print("Stage times (and how busy the machine's CPUs were meanwhile):")
    total = 0
    for line in path.read_text().splitlines():
        name, secs, result, *cpu = line.split("\t")
        total += int(secs)
        busy = f"{int(cpu[0]):3d} %" if cpu else "    -"
        print(f"  {int(secs):5d} s  {busy}  {result:6}  {name}")
    wall = out / "wall_s"
    if wall.exists():
        w = int(wall.read_text())
        beside = ", some ran side by side" if total > w else ""
        print(f"  {w:5d} s  wall ({w / 60:.1f} min; the stages add up to {total} s{beside})")
    else:
        print(f"  {total:5d} s  in all ({total / 60:.1f} min)")


def slowest(out, n=15):
    times = []
    for path in sorted(out.rglob("*")):
        if path.suffix == ".gojson":
            times += go_times(path)
        elif path.suffix == ".xml" and path.name.startswith(("TEST-", "pytest-")):
            times += junit_times(path)
    if times:
        print(f"The {min(n, len(times))} slowest tests:")
        for secs, name in sorted(times, reverse=True)[:n]:
            print(f"  {secs:7.1f} s  {name}")


def junit_counts(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    passed = failed = skipped = 0
    for s in suites:
        total = int(s.get("tests", 0))
        f = int(s.get("failures", 0)) + int(s.get("errors", 0))
        sk = int(s.get("skipped", 0))
        passed += total - f - sk
        failed += f
        skipped += sk
    return passed, failed, skipped


def main(out_dir):
    out = pathlib.Path(out_dir)
    stage_times(out)
    slowest(out)
    tp = tf = ts = 0
    for path in sorted(out.rglob("*")):
        if path.suffix == ".gojson":
            p, f, s = go_counts(path)
        elif path.suffix == ".xml" and path.name.startswith(("TEST-", "pytest-")):
            p, f, s = junit_counts(path)
        else:
            continue
        if path.suffix == ".gojson" or path.name.startswith("pytest-") or f:
            print(f"  {path.relative_to(out)}: {p} passed, {f} failed, {s} skipped")
        tp, tf, ts = tp + p, tf + f, ts + s
    print(f"{tp} passed, {tf} failed" + (f", {ts} skipped" if ts else ""))
    return 1 if tf else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--failures":
        go_failures(pathlib.Path(sys.argv[2]))
        sys.exit(0)
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "tests/out"))
