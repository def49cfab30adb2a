"""The fleet's views at size: how long the Mesh overview's queries and `longhaul report` take over a
day of a fleet's statistics, for every link and for one site's.

A database of its own (--db, dropped first) gets a day of link_stats at WLCG's cadence for --hosts
hosts in meshes of --mesh (every directed pair of a mesh): one-way latency (latencybg) each minute,
traceroute every 10 min, throughput and the collapse detector's baseline every 6 h, their 1h and 1d
windows, in the points and tags Telegraf writes (link_stats.v3). Then every Mesh overview query,
expanded as Grafana expands it (`longhaul dashboards expand`) over the last 24 h, is timed --repeat
times with the site variable at All and at one site, and so is `longhaul report` (all links, then
--site). The figures: each query's median seconds, the slowest panel, the report's seconds.

python bench/views.py --hosts 500 --mesh 30        # 14,300 links, 22 M points (about 5 minutes)"""

import argparse
import concurrent.futures
import json
import os
import random
import statistics
import subprocess
import tempfile
import time

import common
import yaml

influxdb = common.influxdb
CLI = str(common.ROOT / "bin" / "longhaul")
BOARD = common.ROOT / "dashboards" / "json" / "mesh-overview.json"
RETENTION = common.ROOT / "ingest" / "influxdb" / "retention.yaml"
BATCH = 20_000  # lines a write


def links_of(hosts, mesh):
    """Every directed pair within each mesh of `mesh` consecutive hosts."""
    names = [f"ps{i:04d}.site{i // mesh:03d}.bench" for i in range(hosts)]
    meshes = [names[i : i + mesh] for i in range(0, hosts, mesh)]
    return names, [(s, d) for m in meshes for s in m for d in m if s != d]


def create_db(db, admin):
    """The database with the production retention policies (ingest/influxdb/retention.yaml), read
    by the stack's reader user as Grafana's datasource and `longhaul report` read the real one."""
    spec = yaml.safe_load(RETENTION.read_text())
    stmts = [f'DROP DATABASE "{db}"', f'CREATE DATABASE "{db}"']
    for p in spec["policies"]:
        stmts.append(
            f'CREATE RETENTION POLICY "{p["name"]}" ON "{db}" DURATION {p["duration"]} REPLICATION 1 '
            f"SHARD DURATION {p['shard_duration']}{' DEFAULT' if p.get('default') else ''}"
        )
    stmts.append(f'GRANT READ ON "{db}" TO "reader"')
    for s in stmts:
        r = influxdb.request("POST", "/query", auth=admin, params={"q": s}, timeout=60)
        r.raise_for_status()


def point(src, dst, protocol, window, t_ms, fields, series=None):
    tags = f"link_stats,dst={dst},protocol={protocol}{',series=' + series if series else ''},src={src},window={window}"
    body = ",".join(f"{k}={v}" for k, v in fields.items())
    return f"{tags} {body} {t_ms}"


def owd(rng):
    loss = 0.0 if rng.random() < 0.97 else round(rng.uniform(0.1, 5), 2)
    d = round(rng.uniform(5, 150), 3)
    return {
        "samples": "1i",
        "runs": "1i",
        "errors": "0i",
        "loss_percent": loss,
        "loss_percent_max": loss,
        "jitter_ms": 0.03,
        "jitter_ms_max": 0.05,
        "owd_min_ms": d,
        "owd_mean_ms": d + 0.1,
        "owd_max_ms": d + 2,
    }


def link_day(src, dst, now_ms, seed):
    """One link's day: (rp, line) in time order."""
    rng = random.Random(seed)
    day0 = now_ms - 86_400_000
    off = rng.randrange(60_000)  # each link's windows end at its own second (--stats-stagger)
    for m in range(1440):
        t = day0 + m * 60_000 + off
        yield "raw", point(src, dst, "owd", "1m", t, owd(rng))
        if m % 10 == 0:
            yield (
                "raw",
                point(
                    src,
                    dst,
                    "path",
                    "1m",
                    t,
                    {"samples": "1i", "runs": "1i", "errors": "0i", "hop_count": 14.0, "rtt_mean_ms": 150.2},
                ),
            )
        if m % 360 == 0:
            bps = rng.uniform(2e8, 9e8)
            yield (
                "raw",
                point(
                    src,
                    dst,
                    "tcp",
                    "1m",
                    t,
                    {
                        "samples": "10i",
                        "runs": "1i",
                        "errors": "0i",
                        "throughput_mean_bps": bps,
                        "retransmits": "3i",
                        "rtt_mean_ms": 150.4,
                    },
                ),
            )
            yield (
                "raw",
                point(
                    src,
                    dst,
                    "tcp",
                    "baseline",
                    t,
                    {
                        "samples": "8i",
                        "runs": "8i",
                        "baseline_bps": bps,
                        "baseline_spread_bps": 1e7,
                        "baseline_min_runs": "5i",
                        "baseline_ready": "true",
                    },
                    series="tcp",
                ),
            )
        if m % 60 == 59:
            yield "hourly", point(src, dst, "owd", "1h", t, owd(rng))
            yield "hourly", point(src, dst, "path", "1h", t, {"samples": "6i", "runs": "6i", "errors": "0i"})


def fill(db, admin, links, now_ms):
    """Writes every link's day, two batches in flight (one a core); returns (points, seconds)."""
    t0 = time.time()
    buf = {"raw": [], "hourly": []}
    n = 0

    def post(rp, lines):
        r = influxdb.request(
            "POST",
            "/write",
            auth=admin,
            params={"db": db, "rp": rp, "precision": "ms"},
            data="\n".join(lines).encode(),
            timeout=300,
        )
        if r.status_code != 204:
            raise RuntimeError(f"write {rp}: {r.status_code} {r.text[:300]}")

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        pending = []
        for i, (s, d) in enumerate(links):
            for rp, line in link_day(s, d, now_ms, i):
                buf[rp].append(line)
                n += 1
                if len(buf[rp]) >= BATCH:
                    pending.append(pool.submit(post, rp, buf[rp]))
                    buf[rp] = []
            if len(pending) > 4:
                pending.pop(0).result()
        pending += [pool.submit(post, rp, lines) for rp, lines in buf.items() if lines]
        for p in pending:
            p.result()
    return n, time.time() - t0


def expand(query, frm, to, site):
    args = [CLI, "dashboards", "expand", "--from", str(frm), "--to", str(to)]
    if site is not None:
        args += ["--var", f"site={site}"]
    r = subprocess.run([*args, query], capture_output=True, text=True, timeout=30, check=True)
    return r.stdout.rstrip("\n")


def timed_query(q, db, reader, repeat):
    """Median seconds of repeat runs of q, and its rows."""
    times, rows = [], 0
    for _ in range(repeat):
        t0 = time.time()
        r = influxdb.request("GET", "/query", auth=reader, params={"db": db, "q": q}, timeout=300)
        times.append(time.time() - t0)
        r.raise_for_status()
        body = r.json()
        err = [res.get("error") for res in body.get("results", []) if res.get("error")]
        if err:
            raise RuntimeError(f"{q[:120]}: {err[0]}")
        rows = sum(len(s.get("values", [])) for res in body["results"] for s in res.get("series", []))
    return statistics.median(times), rows


def queries():
    """The board's variable queries and panel targets: (name, query, whether it has a site)."""
    board = json.loads(BOARD.read_text())
    has_site = any(v["name"] == "site" for v in board["templating"]["list"])
    for v in board["templating"]["list"]:
        yield f"variable {v['name']}", v["query"], False
    for p in board["panels"]:
        for t in p["targets"]:
            yield f"{p['title']} [{t['refId']}]", t["query"], has_site


def time_board(db, reader, frm, to, site, repeat):
    """Each query's (median seconds, rows) with the site variable at site (None: All)."""
    out = {}
    for name, query, has_site in queries():
        q = expand(query, frm, to, (site if site is not None else ".*") if has_site else None)
        out[name] = timed_query(q, db, reader, repeat)
    return out


def time_report(db, site, repeat):
    secrets = os.environ["LONGHAUL_SECRETS_DIR"]
    env = dict(
        os.environ,
        LONGHAUL_INFLUX_DB=db,
        LONGHAUL_INFLUX_USER="reader",
        LONGHAUL_INFLUX_PASSWORD_FILE=f"{secrets}/influx-reader.password",
    )
    times = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(repeat):
            args = [CLI, "report", "--since", "24h", "-o", f"{d}/r.html"] + (["--site", site] if site else [])
            t0 = time.time()
            r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
            times.append(time.time() - t0)
            if r.returncode != 0:
                return {"error": r.stderr.strip()[-400:]}
    return {"s": round(statistics.median(times), 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=500)
    ap.add_argument("--mesh", type=int, default=30)
    ap.add_argument("--db", default="longhaul_views_bench")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the database (default: dropped at the end)")
    a = ap.parse_args()
    admin, reader = influxdb.stack_user("admin"), influxdb.stack_user("reader")
    names, links = links_of(a.hosts, a.mesh)
    site = names[len(names) // 2]
    create_db(a.db, admin)
    now_ms = int(time.time() * 1000)
    points, fill_s = fill(a.db, admin, links, now_ms)
    to = int(time.time() * 1000)
    frm = to - 86_400_000
    try:
        result = {
            "figure": "views",
            "hosts": a.hosts,
            "mesh": a.mesh,
            "links": len(links),
            "points": points,
            "fill_s": round(fill_s, 1),
            "points_per_s": round(points / fill_s),
        }
        for label, s in (("all", None), ("site", site)):
            t = time_board(a.db, reader, frm, to, s, a.repeat)
            result[f"mesh_{label}"] = {k: [round(v[0], 2), v[1]] for k, v in t.items()}
            result[f"mesh_{label}_slowest_s"] = round(max(v[0] for v in t.values()), 2)
            result[f"report_{label}"] = time_report(a.db, s, a.repeat)
        common.emit(result)
    finally:
        if not a.keep:
            influxdb.request(
                "POST", "/query", auth=admin, params={"q": f'DROP DATABASE "{a.db}"'}, timeout=120
            )


if __name__ == "__main__":
    main()
