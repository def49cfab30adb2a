"""The one percentile of the benchmarks: the nearest rank of the sorted values."""


def pct(values, p):
    """The p-th percentile (0–100) of values by nearest rank, None when there are none."""
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] if v else None
