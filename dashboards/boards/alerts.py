"""Alerts: open and recent events by site."""

from boards.common import IN_RANGE, SITE, dashboard, data_link, mesh_variable, panel, q, site_variable


def alerts():
    none = f"no events {IN_RANGE}"
    return dashboard(
        "longhaul-alerts",
        "Alerts",
        "Open and recent events by site (a site is a source or a destination).",
        [
            panel(
                1,
                "table",
                "Recent events",
                0,
                0,
                24,
                10,
                [
                    q(
                        'SELECT "src", "dst", "kind", "severity", "cause", "message", "episode_id" FROM "daily"."events" '
                        f"WHERE {SITE} AND $timeFilter",
                        "A",
                        "table",
                    )
                ],
                fieldConfig={"defaults": {"links": [data_link("Link detail")]}, "overrides": []},
                no_value=none,
            ),
            panel(
                2,
                "timeseries",
                "Events over time by kind",
                0,
                10,
                12,
                8,
                [
                    q(
                        f'SELECT count("message") FROM "daily"."events" WHERE {SITE} AND $timeFilter '
                        'GROUP BY time($__interval), "kind" fill(none)',
                        alias="$tag_kind",
                    )
                ],
                unit="short",
                fieldConfig={"defaults": {"custom": {"drawStyle": "bars"}}, "overrides": []},
                no_value=none,
            ),
            panel(
                3,
                "bargauge",
                "Events by destination site",
                12,
                10,
                6,
                8,
                [
                    q(
                        f'SELECT count("message") FROM "daily"."events" WHERE {SITE} AND $timeFilter GROUP BY "dst"',
                        alias="$tag_dst",
                    )
                ],
                no_value=none,
            ),
            panel(
                4,
                "stat",
                "Events by severity",
                18,
                10,
                6,
                8,
                [
                    q(
                        f'SELECT count("message") FROM "daily"."events" WHERE {SITE} AND $timeFilter GROUP BY "severity"',
                        alias="$tag_severity",
                    )
                ],
                no_value=none,
            ),
        ],
        variables=[mesh_variable(), site_variable("events")],
    )
