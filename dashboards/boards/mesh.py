"""Mesh overview: incidents first, then every link of the mesh or of some sites."""

from boards.common import (
    DETECTOR_BASELINE,
    IN_RANGE,
    LEARNING_BASELINE,
    READY,
    SITE,
    dashboard,
    data_link,
    mesh_variable,
    panel,
    q,
    site_variable,
)

INCIDENTS_H = 7  # the incidents panel's height: the mesh overview's first row
INCIDENT_KINDS = ("incident_opened", "incident_updated", "incident_resolved")


def incidents_panel(pid, x, y, w, h):
    """The incident correlator's events, newest first: one location explaining several degraded
    links. `longhaul incidents` and the report's first section run this query and fold its rows
    into incidents by episode (open: no incident_resolved yet)."""
    kinds = " OR ".join(f"\"kind\" = '{k}'" for k in INCIDENT_KINDS)
    return panel(
        pid,
        "table",
        "Incidents: one location explaining several links",
        x,
        y,
        w,
        h,
        [
            q(
                'SELECT "episode_id", "kind", "severity", "evidence_location_type" AS "location_type", '
                '"evidence_location" AS "location", "evidence_asn" AS "asn", "evidence_since_ms" AS "since_ms", '
                '"evidence_link_list" AS "links", "evidence_links_degraded" AS "links_degraded", "message" FROM "daily"."events" '
                f"WHERE ({kinds}) AND $timeFilter ORDER BY time DESC",
                "A",
                "table",
            )
        ],
        description="Each row is one change of an incident (opened, updated, resolved), newest first; "
        "`longhaul incidents` lists them folded, open first, with the command that silences each. "
        "Its links' own alerts are muted in Alertmanager while it is open.",
        no_value=f"no incidents {IN_RANGE}",
    )


def mesh():
    matrix = lambda value: [  # noqa: E731  rows src, columns dst
        {"id": "merge", "options": {}},
        {"id": "groupingToMatrix", "options": {"rowField": "src", "columnField": "dst", "valueField": value}},
    ]
    links = [data_link("Link detail ${__data.fields.src} → ${__data.fields.dst}")]
    return dashboard(
        "longhaul-mesh",
        "Mesh overview",
        "Incidents first, then every link of the mesh, or of one site (a source or a destination): current "
        "throughput against its own baseline, loss, alerts.",
        [
            incidents_panel(5, 0, 0, 24, INCIDENTS_H),
            panel(
                1,
                "table",
                "Throughput now ÷ baseline (src × dst)",
                0,
                INCIDENTS_H,
                12,
                9,
                [
                    q(
                        'SELECT last("throughput_mean_bps") AS "current" FROM "raw"."link_stats" '
                        f'WHERE "protocol" = \'tcp\' AND {SITE} AND $timeFilter GROUP BY "src", "dst"',
                        "A",
                        "table",
                    ),
                    q(
                        'SELECT last("baseline_bps") AS "baseline" FROM "raw"."link_stats" '
                        f'WHERE {DETECTOR_BASELINE} AND {READY} AND {SITE} AND time > now() - 30d GROUP BY "src", "dst"',
                        "B",
                        "table",
                    ),
                ],
                unit="percentunit",
                no_value=LEARNING_BASELINE,
                description="Latest 1-minute TCP throughput divided by the baseline the throughput collapse detector "
                "judges the link's runs against (the median of its recent runs, frozen during a collapse). A link is "
                "learning until the detector holds its minimum history of runs (`longhaul report` says how many it "
                "has); from then on every run it judges updates the cell.",
                # the aggregates' Time is each query's range start, which differs: drop it before merging
                transformations=[
                    {"id": "organize", "options": {"excludeByName": {"Time": True}}},
                    {"id": "merge", "options": {}},
                    {
                        "id": "calculateField",
                        "options": {
                            "mode": "binary",
                            "alias": "ratio",
                            "replaceFields": False,
                            "binary": {"left": "current", "operator": "/", "right": "baseline"},
                        },
                    },
                    {
                        "id": "groupingToMatrix",
                        "options": {"rowField": "src", "columnField": "dst", "valueField": "ratio"},
                    },
                ],
            ),
            panel(
                2,
                "table",
                "Loss % now (src × dst)",
                12,
                INCIDENTS_H,
                12,
                9,
                [
                    q(
                        'SELECT last("loss_percent") AS "loss" FROM "raw"."link_stats" '
                        f'WHERE "protocol" =~ /^(udp|icmp|owd)$/ AND {SITE} AND $timeFilter GROUP BY "src", "dst"',
                        "A",
                        "table",
                    )
                ],
                unit="percent",
                no_value=f"no UDP, ping or one-way latency samples {IN_RANGE}",
                description="The latest 1-minute loss of each link: UDP throughput runs, ping, and pScheduler's "
                "one-way latency tests (latency, latencybg: protocol owd, a fleet's commonest result).",
                transformations=matrix("loss"),
            ),
            panel(
                3,
                "table",
                "Links: current throughput, RTT, retransmits",
                0,
                INCIDENTS_H + 9,
                24,
                9,
                [
                    q(
                        'SELECT last("throughput_mean_bps") AS "throughput", last("rtt_mean_ms") AS "rtt_ms", '
                        'last("retransmits") AS "retransmits" FROM "raw"."link_stats" '
                        f'WHERE "protocol" = \'tcp\' AND {SITE} AND $timeFilter GROUP BY "src", "dst"',
                        "A",
                        "table",
                    )
                ],
                description="Click a row to open the link's detail dashboard.",
                no_value=f"no TCP samples {IN_RANGE}",
                fieldConfig={
                    "defaults": {"links": links},
                    "overrides": [
                        {
                            "matcher": {"id": "byName", "options": "throughput"},
                            "properties": [{"id": "unit", "value": "bps"}],
                        }
                    ],
                },
                transformations=[{"id": "merge", "options": {}}],
            ),
            panel(
                4,
                "table",
                "Alert events per link",
                0,
                INCIDENTS_H + 18,
                24,
                8,
                [
                    q(
                        'SELECT count("message") AS "events", last("message") AS "latest" FROM "daily"."events" '
                        f'WHERE "severity" <> \'info\' AND {SITE} AND $timeFilter GROUP BY "src", "dst", "kind"',
                        "A",
                        "table",
                    )
                ],
                description="Warning and critical events in the time range; open alerts: `longhaul alerts`.",
                no_value=f"no warning or critical events {IN_RANGE}",
                fieldConfig={"defaults": {"links": links}, "overrides": []},
                transformations=[{"id": "merge", "options": {}}],
            ),
        ],
        variables=[mesh_variable(), site_variable("link_stats")],
    )
