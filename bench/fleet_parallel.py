"""How many connections each simulated pScheduler host of bench/fleet.py may keep."""

import resource

# descriptors the simulator keeps for itself: its archive, output, Kafka and TLS files
SPARE_FDS = 1000


def parallel_for(hosts):
    """Connections each simulated host may keep: pScheduler's archiver pool (25), or as many as
    the open-files limit the simulator inherits holds for every host at once (a host opens them
    only as its posts overlap, but a backlog opens them all; 20,000 here, which cannot be raised:
    12 a host at 1,500 hosts, 7 at 2,400)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = hard if hard != resource.RLIM_INFINITY else 1 << 20
    return max(1, min(25, (limit - SPARE_FDS) // hosts))
