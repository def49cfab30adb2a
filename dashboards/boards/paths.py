"""Paths: one link's route, its hops and their RTT, and its route changes."""

from boards.common import IN_RANGE, LINK, dashboard, events_annotation, panel, q, var_query


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
                        'SELECT last("addr") AS "addr", last("rtt_ms") AS "rtt_ms" FROM "raw"."path_hops" '
                        f'WHERE {where} GROUP BY "ttl"',
                        "A",
                        "table",
                    )
                ],
                transformations=[
                    {"id": "merge", "options": {}},
                    {"id": "sortBy", "options": {"sort": [{"field": "ttl"}]}},
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
                        f'SELECT "addr" FROM "raw"."path_hops" WHERE {where} GROUP BY "ttl"',
                        alias="hop $tag_ttl",
                    )
                ],
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
                        f'SELECT mean("rtt_ms") FROM "raw"."path_hops" WHERE {where} GROUP BY time($__interval), "ttl" fill(none)',
                        alias="hop $tag_ttl",
                    )
                ],
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
