"""Paths: one link's route, its hops and their RTT, and its route changes."""

from boards.common import IN_RANGE, LINK, dashboard, events_annotation, panel, q, var_query

# A run's hops are fields of one point per run (ingest/telegraf: hop_007_addr, hop_007_rtt_ms),
# so a link is one series however many hops its route has; the queries pick them by regex.
HOP_ADDR = r"/^hop_\d+_addr$/"
HOP_RTT = r"/^hop_\d+_rtt_ms$/"
HOP_FIELDS = r"/^hop_\d+_(addr|rtt_ms)$/"


def hop_names(pattern, name):
    """Grafana's rename of the hop fields' columns (hop_007_rtt_ms) to what a reader calls them."""
    return {"id": "renameByRegex", "options": {"regex": pattern, "renamePattern": name}}


def paths():
    where = f"{LINK} AND $timeFilter"
    hops = f"no traceroute hops for this link {IN_RANGE}"
    return dashboard(
        "longhaul-paths",
        "Paths",
        "Hop-by-hop traceroute history of one link and its route changes.",
        [
            panel(
                1,
                "table",
                "Latest path",
                0,
                0,
                8,
                10,
                [
                    q(
                        f'SELECT last({HOP_FIELDS}) FROM "raw"."path_hops" WHERE {where}',
                        alias="$col",
                    )
                ],
                transformations=[
                    hop_names(r"^last_(hop)_(\d+)_(addr|rtt_ms)$", "$1 $2 $3"),
                    {"id": "reduce", "options": {"mode": "seriesToRows", "reducers": ["lastNotNull"]}},
                    {"id": "sortBy", "options": {"sort": [{"field": "Field"}]}},
                ],
                no_value=hops,
            ),
            panel(
                2,
                "state-timeline",
                "Address at each hop over time",
                8,
                0,
                16,
                10,
                [
                    q(
                        f'SELECT {HOP_ADDR} FROM "raw"."path_hops" WHERE {where}',
                        alias="$col",
                    )
                ],
                transformations=[hop_names(r"^hop_0*(\d+)_addr$", "hop $1")],
                options={"showValue": "auto", "mergeValues": True},
                no_value=hops,
            ),
            panel(
                3,
                "timeseries",
                "RTT per hop",
                0,
                10,
                12,
                8,
                [
                    q(
                        f'SELECT mean({HOP_RTT}) FROM "raw"."path_hops" WHERE {where} GROUP BY time($__interval) fill(none)',
                        alias="$col",
                    )
                ],
                transformations=[hop_names(r"^mean_hop_0*(\d+)_rtt_ms$", "hop $1")],
                unit="ms",
                no_value=hops,
            ),
            panel(
                4,
                "timeseries",
                "Hop count",
                12,
                10,
                12,
                8,
                [
                    q(
                        'SELECT mean("hop_count") AS "hops" FROM "raw"."link_stats" '
                        f"WHERE {where} AND \"protocol\" = 'path' GROUP BY time($__interval) fill(none)"
                    )
                ],
                unit="short",
                no_value=f"no traceroute samples for this link {IN_RANGE}",
            ),
            panel(
                5,
                "table",
                "Route changes with RTT before and after",
                0,
                18,
                24,
                7,
                [
                    q(
                        'SELECT "message", "evidence_rtt_before_ms" AS "rtt_before_ms", "evidence_rtt_after_ms" AS "rtt_after_ms" '
                        f'FROM "daily"."events" WHERE {where} AND "kind" = \'route_change\'',
                        "A",
                        "table",
                    )
                ],
                no_value=f"no route change on this link {IN_RANGE}",
            ),
        ],
        variables=[
            var_query("src", "source", 'SHOW TAG VALUES FROM "path_hops" WITH KEY = "src"'),
            var_query(
                "dst",
                "destination",
                'SHOW TAG VALUES FROM "path_hops" WITH KEY = "dst" WHERE "src" = \'$src\'',
            ),
        ],
        annotations=[events_annotation("Route changes", f"{LINK} AND \"kind\" = 'route_change'", "orange")],
        time_from="now-7d",
    )
