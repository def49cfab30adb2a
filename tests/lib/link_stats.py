"""The link_stats messages the tests produce (ingest/schemas link_stats): one place for the shape a
TCP statistic of one link and window has, the tests giving only the figures they are about."""

WINDOW_MS = {"1m": 60_000, "1h": 3_600_000, "1d": 86_400_000}


def link_stats(src, dst, ts, *, version=1, window="1m", probe_id="link-stats", **fields):
    """The TCP statistics of src → dst for the window ending at ts (epoch ms), with fields. A
    "baseline" window (the collapse detector's baseline, link_stats.v3) is the instant ts."""
    start = ts if window == "baseline" else ts - WINDOW_MS[window]
    return {
        "schema": "link_stats",
        "version": version,
        "src": src,
        "dst": dst,
        "probe_id": probe_id,
        "ts": ts,
        "protocol": "tcp",
        "window": window,
        "window_start": start,
        "window_end": ts,
        **fields,
    }
