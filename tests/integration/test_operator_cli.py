"""The operator commands against the real InfluxDB after the end-to-end run: `longhaul trends`,
`longhaul alerts`, and `longhaul report` opened in real headless Chromium, whose screenshot must
show the charts drawn (pixels of the series colours inside the page) and whose DOM must hold one
drawn SVG per panel of the Mesh overview and Link detail dashboards."""

import html as markup
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import tempfile
import time
import zlib

from conftest import INFLUX, INFLUX_DB, now_ms, rows, topic, wait_for_series
from messages import link_stats

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = ROOT / "bin" / "longhaul"
ENV = {**os.environ, "LONGHAUL_INFLUX": INFLUX, "LONGHAUL_INFLUX_DB": INFLUX_DB}
SERIES_COLOURS = ["#7EB26D", "#EAB839", "#6ED0E0", "#EF843C", "#E24D42", "#1F78C1", "#BA43A9", "#705DA0"]


def longhaul(*args):
    r = subprocess.run([str(CLI), *args], capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def chromium(*args):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    assert exe, "chromium is missing: scripts/prereqs.sh installs it"
    with tempfile.TemporaryDirectory() as profile:
        r = subprocess.run(
            [
                exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--hide-scrollbars",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def png_pixels(path):
    """Decode an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes) into rows of bytes."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, prev, rows = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


def colour_counts(path):
    """Pixels of each series colour (opaque, exact) in the screenshot."""
    _, bpp, rows = png_pixels(path)
    counts = {}
    for h in SERIES_COLOURS:
        pixel = bytes(int(h[i : i + 2], 16) for i in (1, 3, 5)) + (b"\xff" if bpp == 4 else b"")
        counts[h] = sum(row.count(pixel) for row in rows)
    return counts


def test_trends_prints_the_links_history(mesh_run):
    out = longhaul(
        "trends", "--src", mesh_run["src"], "--dst", mesh_run["fnal"], "--since", "6h", "--every", "30m"
    )
    lines = out.splitlines()
    assert lines[0].startswith(f"{mesh_run['src']} → {mesh_run['fnal']}, last 6h every 30m")
    assert lines[1].split()[:3] == ["time", "(UTC)", "throughput"]
    rows = lines[2:]
    assert len(rows) >= 5, out
    assert any("Mbit/s" in r and "9" in r.split()[2] for r in rows), out  # ~900 Mbit/s before the collapse
    assert any(re.search(r"\s(1[4-6]\d\.\d\d)\s", r) for r in rows), out  # RTT 140-165 ms from the pings
    assert "owd ms" in lines[1] and any(re.search(r"\s70\.\d\d\s", r) for r in rows), (
        out
    )  # one way, cern → fnal
    daily = longhaul(
        "trends", "--src", mesh_run["src"], "--dst", mesh_run["fnal"], "--since", "90d", "--every", "1d"
    )
    assert "every 1d" in daily.splitlines()[0] and len(daily.splitlines()) >= 3, daily


def test_alerts_prints_open_alerts_and_recent_events(mesh_run):
    out = longhaul("alerts", "--since", "6h", "--site", mesh_run["kek"])
    opened, _, recent = out.partition("\nevents in the last")
    assert "unreachable" in opened and mesh_run["kek"] in opened, out
    assert mesh_run["fnal"] not in out, "--site filters to one site"
    everything = longhaul("alerts", "--since", "6h")
    for dst, kind in (
        (mesh_run["fnal"], "throughput_collapse"),
        (mesh_run["fnal"], "route_change"),
        (mesh_run["triumf"], "high_loss"),
    ):
        assert re.search(rf"{kind}\s+{mesh_run['src']} → {dst}", everything), (kind, everything)


def test_report_renders_every_panel_in_chromium(mesh_run, tmp_path):
    html = tmp_path / "report.html"
    longhaul("report", "--since", "6h", "--src", mesh_run["src"], "--dst", mesh_run["fnal"], "-o", str(html))
    page = html.read_text()
    assert not re.search(r"(?i)(src|href)\s*=|url\(|<script|<link", page), "the report must be self-contained"
    boards = {
        b["uid"]: b for b in (json.loads(f.read_text()) for f in (ROOT / "dashboards/json").glob("*.json"))
    }
    panels = len(boards["longhaul-mesh"]["panels"]) + len(boards["longhaul-link"]["panels"])
    assert page.count('class="panel"') == panels

    dom = chromium("--dump-dom", html.as_uri())
    drawn = re.findall(r'<path class="series" d="M[\d.]+ [\d.]+ (?:L[\d.]+ [\d.]+ ?){3,}"', dom)
    charts = [p for p in boards["longhaul-link"]["panels"] if p["type"] != "table"]
    lines_expected = (
        3 + 1 + 1 + 3 + 1 + 1 + 2
    )  # mean/p10/p90, rolling, retransmits, min/mean/max RTT, loss, jitter, the detector's baseline and spread
    assert len(drawn) >= lines_expected, f"{len(drawn)} drawn series for {len(charts)} charts"
    assert dom.count('<svg class="grid"') == 2 and "no data" not in dom
    assert dom.count('class="mark"') >= len(charts), "events are drawn as annotations on every chart"

    shot = tmp_path / "report.png"
    chromium(
        "--window-size=1240,4600", f"--screenshot={shot}", html.as_uri()
    )  # tall enough for 12×12 matrices
    counts = colour_counts(shot)
    assert counts["#7EB26D"] > 2000 and counts["#EAB839"] > 300 and counts["#6ED0E0"] > 300, counts


def minutes(produce, src, dst, end, n, **fields):
    """n 1-minute statistics of src → dst with fields, the newest first, ending at end."""
    for k in range(n):
        produce(topic("stats"), link_stats(src, dst, end - k * 60_000, **fields))


def test_report_of_a_link_minutes_old_says_what_each_empty_panel_is_learning(produce, run_tag, tmp_path):
    """A link a few minutes old (what `make demo` shows at first): six 1-minute statistics in the real
    InfluxDB through Telegraf. No panel says "no data": the baseline matrix and the rolling average
    say they are learning and what they have so far, the panels without samples say which."""
    src, dst = run_tag, f"{run_tag}-far"
    end = now_ms() // 60_000 * 60_000
    minutes(
        produce,
        src,
        dst,
        end,
        6,
        samples=4,
        runs=1,
        errors=0,
        retransmits=0,
        throughput_mean_bps=9.4e7,
        throughput_median_bps=9.4e7,
        throughput_p10_bps=9.2e7,
        throughput_p90_bps=9.5e7,
        throughput_max_bps=9.5e7,
    )
    wait_for_series(f'SELECT count("samples") FROM "raw"."link_stats" WHERE "src" = \'{src}\'', timeout_s=60)
    deadline = time.time() + 60
    while len(rows(wait_for_series(f'SELECT "samples" FROM "raw"."link_stats" WHERE "src" = \'{src}\''))) < 6:
        assert time.time() < deadline, "six statistics not in InfluxDB within 60 s"
        time.sleep(1)
    html = tmp_path / "report.html"
    out = longhaul("report", "--since", "15m", "--src", src, "--dst", dst, "-o", str(html))
    page = html.read_text()
    assert "no data" not in page, page[:2000]
    assert "learning baseline" in page and "moving average of 10 needs 10 points: 6 so far" in page, out
    assert re.search(r"learning\s+Link detail: .* / Throughput rolling", out), out


def matrix_cell(page, title, src, dst):
    """What the report's src × dst matrix `title` draws in one cell: ("value", its label) or
    ("learning", the reason in its tooltip)."""
    grid = page.split(f"<h3>{title}</h3>", 1)[1].split("</svg>", 1)[0]
    cols = re.findall(r'<text class="head"[^>]*transform="rotate[^"]*">([^<]*)</text>', grid)
    row = grid.split(f'text-anchor="end">{src}</text>', 1)[1].split('<text class="head"', 1)[0]
    cells = re.findall(
        r'<g class="learning"><title>([^<]*)</title>|<text class="value"[^>]*>([^<]*)</text>', row
    )
    learning, value = cells[cols.index(dst)]
    return ("learning", markup.unescape(learning)) if learning else ("value", value)


def test_the_matrix_divides_by_the_collapse_detectors_baseline_and_fills_once_it_is_ready(
    produce, run_tag, tmp_path
):
    """One baseline everywhere: the mesh matrix and the link detail read the baseline the Flink
    job's collapse detector publishes after each run (link_stats.v3 window baseline), through
    Telegraf into the real InfluxDB. While the detector holds 3 of its 5 runs the cell and the link's
    baseline chart say so; once its baseline is ready the cell is now ÷ that baseline."""
    src, dst = run_tag, f"{run_tag}-far"
    end = now_ms() // 60_000 * 60_000
    minutes(produce, src, dst, end, 3, version=3, samples=4, runs=1, throughput_mean_bps=9.4e7)

    def baseline(ts, runs, ready):
        produce(
            topic("stats"),
            link_stats(
                src,
                dst,
                ts,
                version=3,
                window="baseline",
                probe_id="collapse-detector",
                samples=runs,
                runs=runs,
                series="tcp",
                baseline_bps=1e8,
                baseline_spread_bps=1.5e6,
                baseline_min_runs=5,
                baseline_ready=ready,
            ),
        )

    def report():
        page = tmp_path / "report.html"
        out = longhaul("report", "--since", "5m", "--src", src, "--dst", dst, "-o", str(page))
        return out, page.read_text()

    where = f"\"src\" = '{src}' AND \"window\" = 'baseline'"
    baseline(end - 150_000, 3, False)
    wait_for_series(f'SELECT "runs" FROM "raw"."link_stats" WHERE {where}', timeout_s=60)
    wait_for_series(
        f'SELECT count("samples") FROM "raw"."link_stats" WHERE "src" = \'{src}\' AND "window" = \'1m\''
    )
    out, page = report()
    learning = "learning baseline: the collapse detector has 3 of the 5 runs it judges with"
    assert matrix_cell(page, "Throughput now ÷ baseline (src × dst)", src, dst) == ("learning", learning), out
    assert re.search(
        rf"learning\s+Link detail: {src} → {dst} / Collapse detector's baseline \(TCP\): {learning}", out
    ), out

    for i, runs in enumerate((4, 5, 6)):
        baseline(end - 120_000 + i * 30_000, runs, runs >= 5)
    wait_for_series(
        f'SELECT "runs" FROM "raw"."link_stats" WHERE {where} AND "baseline_ready" = true AND "runs" = 6'
    )
    out, page = report()
    assert matrix_cell(page, "Throughput now ÷ baseline (src × dst)", src, dst) == ("value", "94 %"), out
    assert f"Link detail: {src} → {dst} / Collapse detector's baseline" not in out, out
