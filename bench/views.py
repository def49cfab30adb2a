"""The fleet's views at size: how long the Mesh overview's queries and `longhaul report` take over a
fleet's statistics, for every link and for one site's, and how many series the fleet makes.

A database of its own (--db, dropped first) gets --hours (24) of link_stats at WLCG's cadence for
--hosts hosts in meshes of --mesh (every directed pair of a mesh): one-way latency (latencybg) each
minute, traceroute every 10 min (with --hops, its hops in path_hops), throughput and the collapse
detector's baseline every 6 h, their 1h windows and one 1d window each, in the points and tags
Telegraf writes (link_stats.v3). Then every Mesh overview query, expanded as Grafana expands it
(`longhaul dashboards expand`) over those hours, is timed --repeat times with the site variable at
All and at one site, and so is `longhaul report` (all links, then --site). The figures: each
query's median seconds, the report's, the database's series (exact) and InfluxDB's heap.

python bench/views.py --hosts 500 --mesh 30                      # a day of 14,300 links, 23.5 M points (~5 min)
python bench/views.py --hosts 2400 --hours 2 --hops 15          # the public fleet's series: 69,600 links"""

import argparse
import concurrent.futures
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
import zlib

import common
import grafana  # tests/lib, on the path through common
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


PATH = {"samples": "1i", "runs": "1i", "errors": "0i", "hop_count": 14.0, "rtt_mean_ms": 150.2}
TCP = {"samples": "10i", "runs": "1i", "errors": "0i", "retransmits": "3i", "rtt_mean_ms": 150.4}
BASELINE = {
    "samples": "8i",
    "runs": "8i",
    "baseline_spread_bps": 1e7,
    "baseline_min_runs": "5i",
    "baseline_ready": "true",
}


def hop_lines(src, dst, t, hops):
    """A traceroute run's hops as Telegraf writes them (ingest/telegraf: a line per hop, its
    fields named by its TTL, all at the run's time: InfluxDB stores one point a run)."""
    for ttl in range(1, hops + 1):
        hop = f"hop_{ttl:03d}_"
        yield f'path_hops,dst={dst},src={src} {hop}addr="10.{ttl}.{zlib.crc32(dst.encode()) % 250}.1",{hop}rtt_ms={ttl * 9.5} {t}'


def link_points(src, dst, now_ms, seed, hours, hops):
    """One link's last `hours` at WLCG's cadence, then one daily window of each protocol (so the
    link has every series a day-old fleet's link has): (rp, line) in time order."""
    rng = random.Random(seed)
    start = now_ms - hours * 3_600_000
    off = rng.randrange(60_000)  # each link's windows end at its own second (--stats-stagger)
    tcp_at = min(180, hours * 30)  # a throughput run inside even a short span
    for m in range(hours * 60):
        t = start + m * 60_000 + off
        yield "raw", point(src, dst, "owd", "1m", t, owd(rng))
        if m % 10 == 0:  # traceroute every 10 min
            yield "raw", point(src, dst, "path", "1m", t, PATH)
            for line in hop_lines(src, dst, t, hops):
                yield "raw", line
        if m % 360 == tcp_at:  # throughput every 6 h
            bps = rng.uniform(2e8, 9e8)
            yield "raw", point(src, dst, "tcp", "1m", t, {**TCP, "throughput_mean_bps": bps})
            yield (
                "raw",
                point(src, dst, "tcp", "baseline", t, {**BASELINE, "baseline_bps": bps}, series="tcp"),
            )
        if m % 60 == 59:
            for proto, fields in (("owd", owd(rng)), ("path", PATH), ("tcp", TCP)):
                yield "hourly", point(src, dst, proto, "1h", t, fields)
    for proto, fields in (("owd", owd(rng)), ("path", PATH), ("tcp", TCP)):
        yield "daily", point(src, dst, proto, "1d", start + off, fields)


def fill(db, admin, links, now_ms, hours, hops):
    """Writes every link's points, two batches in flight (one a core); returns (points, seconds)."""
    t0 = time.time()
    buf = {"raw": [], "hourly": [], "daily": []}
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
            for rp, line in link_points(s, d, now_ms, i, hours, hops):
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


def timed_query(q, db, reader, repeat):
    """Median seconds of repeat runs of q, and its rows."""
    times = []
    for _ in range(repeat):
        t0 = time.time()
        series = influxdb.series(q, db=db, auth=reader, timeout=300)
        times.append(time.time() - t0)
    return statistics.median(times), sum(len(s.get("values", [])) for s in series)


def queries():
    """The board's variable queries and panel targets: (name, query, whether it has a site)."""
    board = json.loads(BOARD.read_text())
    has_site = any(v["name"] == "site" for v in board["templating"]["list"])
    for v in board["templating"]["list"]:
        if v["type"] != "custom":  # a custom variable (the mesh) runs no query
            yield f"variable {v['name']}", v["query"], False
    for p in board["panels"]:
        for t in p["targets"]:
            yield f"{p['title']} [{t['refId']}]", t["query"], has_site


def time_board(db, reader, frm, to, variables, repeat):
    """Each query's (median seconds, rows) with the fleet's variables (mesh, site) at these."""
    out = {}
    for name, query, has_site in queries():
        q = grafana.expand(
            query, frm, to, {"mesh": grafana.ALL, "site": grafana.ALL, **variables} if has_site else {}
        )
        out[name] = timed_query(q, db, reader, repeat)
    return out


def mesh_of(site, names, mesh, tmp):
    """The mesh variable's value for the mesh of `site`, as `longhaul dashboards meshes` writes it
    from a pSConfig template of that mesh (in `tmp`), and the template's path and group for
    `longhaul report --mesh`."""
    i = names.index(site) // mesh * mesh
    template, _, value = grafana.mesh_overview(tmp, "bench", names[i : i + mesh])
    return value, template, "bench"


def time_report(db, scope, hours, repeat):
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
            args = [CLI, "report", "--since", f"{hours}h", "-o", f"{d}/r.html", *scope]
            t0 = time.time()
            r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
            times.append(time.time() - t0)
            if r.returncode != 0:
                return {"error": r.stderr.strip()[-400:]}
    return {"s": round(statistics.median(times), 2)}


def series_and_memory(db, admin):
    """The database's series and InfluxDB's heap in use and memory from the runtime, MB, from its
    /debug/vars: numSeries counts every retention policy's shards (SHOW SERIES EXACT CARDINALITY
    on InfluxDB 1.8's inmem index counted the default policy's shards alone: 38 of 50 series)."""
    v = influxdb.request("GET", "/debug/vars", auth=admin, timeout=120).json()
    series = v.get(f"database:{db}", {}).get("values", {}).get("numSeries", 0)
    mem = v["memstats"]
    return {
        "series": series,
        "heap_inuse_mb": round(mem["HeapInuse"] / 2**20),
        "sys_mb": round(mem["Sys"] / 2**20),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=500)
    ap.add_argument("--mesh", type=int, default=30)
    ap.add_argument("--hours", type=int, default=24, help="the span of statistics written and viewed")
    ap.add_argument("--hops", type=int, default=0, help="traceroute hops a run writes to path_hops (0: none)")
    ap.add_argument("--db", default="longhaul_views_bench")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the database (default: dropped at the end)")
    a = ap.parse_args()
    admin, reader = influxdb.stack_user("admin"), influxdb.stack_user("reader")
    names, links = links_of(a.hosts, a.mesh)
    site = names[len(names) // 2]
    try:
        create_db(a.db, admin)
        before = series_and_memory(a.db, admin)
        now_ms = int(time.time() * 1000)
        points, fill_s = fill(a.db, admin, links, now_ms, a.hours, a.hops)
        after = series_and_memory(a.db, admin)
        to = int(time.time() * 1000)
        frm = to - a.hours * 3_600_000
        result = {
            "figure": "views",
            "hosts": a.hosts,
            "mesh": a.mesh,
            "links": len(links),
            "hours": a.hours,
            "hops": a.hops,
            "points": points,
            "fill_s": round(fill_s, 1),
            "points_per_s": round(points / fill_s),
            "series": after["series"],
            "series_per_link": round(after["series"] / len(links), 1),
            "influxdb_heap_inuse_mb": [before["heap_inuse_mb"], after["heap_inuse_mb"]],
            "influxdb_sys_mb": [before["sys_mb"], after["sys_mb"]],
        }
        with tempfile.TemporaryDirectory() as tmp:
            mesh, template, group = mesh_of(site, names, a.mesh, tmp)
            for label, variables, scope in (
                ("all", {}, []),
                ("site", {"site": site}, ["--site", site]),
                ("mesh", {"mesh": mesh}, ["--mesh", group, "--psconfig", str(template)]),
            ):
                t = time_board(a.db, reader, frm, to, variables, a.repeat)
                result[f"mesh_{label}"] = {k: [round(v[0], 2), v[1]] for k, v in t.items()}
                result[f"mesh_{label}_slowest_s"] = round(max(v[0] for v in t.values()), 2)
                result[f"report_{label}"] = time_report(a.db, scope, a.hours, a.repeat)
        common.emit(result)
    finally:
        if not a.keep:
            influxdb.request(
                "POST", "/query", auth=admin, params={"q": f'DROP DATABASE "{a.db}"'}, timeout=120
            )


if __name__ == "__main__":
    main()
