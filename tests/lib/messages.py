"""Messages the tests produce, in the contract's shapes (ingest/schemas): one place for the fields
every message of a kind has, the tests giving only the figures they are about."""

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


def throughput_summary(src, dst, ts, run_id, *, probe_id, version=1, seconds=10.0, **fields):
    """The summary of an iperf3 TCP run of src → dst, seconds long, with fields (its figures)."""
    return {
        "schema": "throughput_sample",
        "version": version,
        "src": src,
        "dst": dst,
        "probe_id": probe_id,
        "ts": ts,
        "run_id": run_id,
        "record": "summary",
        "tool": "iperf3",
        "protocol": "tcp",
        "start_s": 0.0,
        "end_s": seconds,
        **fields,
    }


def clean_tcp_summary(src, dst, ts, run_id, bps, *, probe_id):
    """The summary of a 10 s iperf3 TCP run at bps without a retransmit."""
    return throughput_summary(
        src, dst, ts, run_id, probe_id=probe_id, bytes=int(bps * 10 / 8), bits_per_second=bps, retransmits=0
    )
