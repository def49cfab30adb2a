"""`longhaul import archive` throughput: an export of --records archived pScheduler results (the
golden throughput, trace and rtt results in turn, one a minute of a month ago over 100 links),
imported as the importer user into the native stack (security on), until Kafka acknowledged every
sample. Prints records/s, samples/s and the importer's peak RSS.

python bench/backfill.py --records 30000"""

import argparse
import json
import os
import pathlib
import resource
import subprocess
import tempfile
import time

import common
from psbridge import SECRETS, archive

CASES = [
    ("throughput", "iperf3-tcp-2streams-tbf20mbit"),
    ("path", "traceroute-ecmp-3-hops"),
    ("rtt", "ping-diags-command-line"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=30000)
    a = ap.parse_args()
    tag, start = common.tag("bf"), time.time() - 30 * 86400
    with tempfile.TemporaryDirectory() as tmp:
        export = pathlib.Path(tmp) / "export.jsonl"
        with export.open("w") as f:
            for i in range(a.records):
                m = archive(*CASES[i % len(CASES)], f"{tag}-s{i % 100}", f"{tag}-d")
                m["schedule"]["start"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + i * 60))
                f.write(json.dumps(m) + "\n")
        env = {
            **os.environ,
            "LONGHAUL_KAFKA_USER": "importer",
            "LONGHAUL_KAFKA_PASSWORD_FILE": str(SECRETS / "kafka-importer.password"),
        }
        t0 = time.time()
        r = subprocess.run(
            [
                str(common.ROOT / "bin" / "longhaul"),
                "import",
                "archive",
                "--json",
                "--seen",
                str(pathlib.Path(tmp) / "seen.log"),
                str(export),
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        dt = time.time() - t0
        rep = json.loads(r.stdout.strip().splitlines()[-1])
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(
            f"import: {rep['accepted']} of {rep['records']} records ({export.stat().st_size / 1e6:.0f} MB) in {dt:.1f} s = "
            f"{rep['accepted'] / dt:.0f} records/s, {rep['samples'] / dt:.0f} samples/s; peak RSS {rss:.0f} MB"
        )


if __name__ == "__main__":
    main()
