#!/usr/bin/env python3
"""Adds up test results of every language into one 'N passed, N failed' line.

Reads tests/out/: `go test -json` streams (*.gojson) and JUnit XML reports (*.xml from
pytest and Maven Surefire/Failsafe). Prints a line per suite, then the total.
"""
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
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "tests/out"))
