"""Writes dashboards/json/*.json, Longhaul's Grafana dashboards, from the definitions below.
Edit here, run `python dashboards/build_dashboards.py`, commit both; tests/unit/test_dashboards.py
fails when the JSON and this file disagree. Every query is raw InfluxQL against the provisioned
datasource (uid longhaul-influxdb); Grafana expands $timeFilter, $__interval and the variables."""

import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parent / "json"
DS = {"type": "influxdb", "uid": "longhaul-influxdb"}
LINK = "\"src\" = '$src' AND \"dst\" = '$dst'"
SITE = '("src" =~ /^$site$/ OR "dst" =~ /^$site$/)'
BOTH_WAYS = "((\"src\" = '$src' AND \"dst\" = '$dst') OR (\"src\" = '$dst' AND \"dst\" = '$src'))"  # a link's two directions
LINK_URL = "/d/longhaul-link/link-detail?var-src=${__data.fields.src}&var-dst=${__data.fields.dst}&${__url_time_range}"
ROLLING = 10  # the link's rolling throughput: a moving average of this many intervals with samples
# What an empty panel says instead of Grafana's "No data" (fieldConfig.defaults.noValue). A panel
# that needs more history than a short run has says "learning: …" and what it needs; `longhaul
# report` reads that need from the query itself and counts what there is so far.
IN_RANGE = "in the time range"
# The one baseline: the throughput collapse detector's, published after each run it judges or
# learns from (link_stats.v3 window "baseline", tag series = the probe), ready once it holds the
# minimum history it judges with.
DETECTOR_BASELINE = "\"window\" = 'baseline' AND \"protocol\" = 'tcp'"
READY = '"baseline_ready" = true'
LEARNING_BASELINE = (
    "learning: the baseline is the collapse detector's, ready once it holds the link's first runs "
    "(--collapse.min-history)"
)
LEARNING_ROLLING = f"learning: the moving average of {ROLLING} needs {ROLLING} intervals with samples"


def q(query, ref="A", fmt="time_series", alias=None):
    t = {"refId": ref, "datasource": DS, "query": query, "rawQuery": True, "resultFormat": fmt}
    if alias:
        t["alias"] = alias
    return t


def panel(pid, kind, title, x, y, w, h, targets, unit=None, description=None, no_value=None, **extra):
    p = {
        "id": pid,
        "type": kind,
        "title": title,
        "datasource": DS,
        "gridPos": {"x": x, "y": y, "w": w, "h": h},
        "targets": targets,
        "fieldConfig": {"defaults": {}, "overrides": []},
        "options": {},
    }
    if unit:
        p["fieldConfig"]["defaults"]["unit"] = unit
    if description:
        p["description"] = description
    p.update(extra)
    if no_value:  # shown instead of "No data", and in a matrix's cells without a value
        p["fieldConfig"]["defaults"]["noValue"] = no_value
    return p


def data_link(title):
    """A field data link; the SDK types field links as DashboardLink, so it carries those fields too."""
    return {
        "title": title,
        "url": LINK_URL,
        "type": "link",
        "icon": "dashboard",
        "tooltip": "",
        "tags": [],
        "asDropdown": False,
        "targetBlank": False,
        "includeVars": False,
        "keepTime": False,
    }


def var_query(name, label, query):
    return {
        "type": "query",
        "name": name,
        "label": label,
        "datasource": DS,
        "query": query,
        "refresh": 2,
        "sort": 1,
        "includeAll": False,
        "multi": False,
    }


def site_variable(measurement):
    """Sites to narrow a fleet's view to (sources or destinations of MEASUREMENT; a mesh's hosts
    give its links), or All: the queries' {SITE} then matches any chosen site, (a|b) as Grafana
    writes several values in a regex, or every link (allValue .*); `longhaul dashboards expand`
    and the report write them the same way."""
    v = var_query("site", "site", f'SHOW TAG VALUES FROM "{measurement}" WITH KEY IN ("src", "dst")')
    v.update(
        {"includeAll": True, "multi": True, "allValue": ".*", "current": {"text": "All", "value": "$__all"}}
    )
    return v


def events_annotation(name, where, color="red"):
    return {
        "name": name,
        "datasource": DS,
        "enable": True,
        "iconColor": color,
        "target": {
            "refId": "Anno",
            "limit": 100,
            "matchAny": False,
            "tags": [],
            "type": "tags",
            "query": f'SELECT "message" AS "text", "kind" AS "tags" FROM "daily"."events" WHERE {where} AND $timeFilter',
            "rawQuery": True,
            "resultFormat": "table",
        },
    }


def dashboard(uid, title, description, panels, variables=(), annotations=(), time_from="now-24h"):
    builtin = {
        "builtIn": 1,
        "name": "Annotations & Alerts",
        "type": "dashboard",
        "enable": True,
        "hide": True,
        "iconColor": "rgba(0, 211, 255, 1)",
        "datasource": {"type": "grafana", "uid": "-- Grafana --"},
    }
    return {
        "uid": uid,
        "title": title,
        "description": description,
        "tags": ["longhaul"],
        "timezone": "utc",
        "editable": False,
        "graphTooltip": 1,
        "schemaVersion": 41,
        "version": 1,
        "refresh": "1m",
        "time": {"from": time_from, "to": "now"},
        "links": [
            {
                "title": "Longhaul",
                "type": "dashboards",
                "tags": ["longhaul"],
                "asDropdown": True,
                "includeVars": False,
                "keepTime": True,
                "icon": "external link",
                "targetBlank": False,
                "tooltip": "",
                "url": "",
            }
        ],
        "templating": {"list": list(variables)},
        "annotations": {"list": [builtin, *annotations]},
        "panels": panels,
    }


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
        variables=[site_variable("link_stats")],
    )


def link():
    where = f"{LINK} AND $timeFilter"
    none = lambda what: f"no {what} for this link {IN_RANGE}"  # noqa: E731
    return dashboard(
        "longhaul-link",
        "Link detail",
        "One link: throughput, retransmits, RTT, loss, jitter, and pScheduler's one-way delay and loss in each "
        "direction; events as annotations.",
        [
            panel(
                1,
                "timeseries",
                "Throughput per 1-minute window",
                0,
                0,
                12,
                8,
                [
                    q(
                        'SELECT mean("throughput_mean_bps") AS "mean", mean("throughput_p10_bps") AS "p10", '
                        'mean("throughput_p90_bps") AS "p90" FROM "raw"."link_stats" '
                        f"WHERE {where} AND \"protocol\" = 'tcp' GROUP BY time($__interval) fill(none)"
                    )
                ],
                unit="bps",
                no_value=none("TCP samples"),
            ),
            panel(
                2,
                "timeseries",
                f"Throughput rolling (moving average of {ROLLING})",
                12,
                0,
                12,
                8,
                [
                    q(
                        f'SELECT moving_average(mean("throughput_mean_bps"), {ROLLING}) AS "rolling" FROM "raw"."link_stats" '
                        f"WHERE {where} AND \"protocol\" = 'tcp' GROUP BY time($__interval) fill(none)"
                    )
                ],
                unit="bps",
                no_value=LEARNING_ROLLING,
                description=f"Moving average of the last {ROLLING} intervals with TCP samples: learning until there are "
                f"{ROLLING} (`longhaul report` counts them).",
            ),
            panel(
                3,
                "timeseries",
                "TCP retransmits",
                0,
                8,
                12,
                8,
                [
                    q(
                        'SELECT sum("retransmits") AS "retransmits" FROM "raw"."link_stats" '
                        f"WHERE {where} AND \"protocol\" = 'tcp' GROUP BY time($__interval) fill(none)"
                    )
                ],
                unit="short",
                no_value=none("TCP samples"),
            ),
            panel(
                4,
                "timeseries",
                "RTT (ping)",
                12,
                8,
                12,
                8,
                [
                    q(
                        'SELECT min("rtt_min_ms") AS "min", mean("rtt_mean_ms") AS "mean", max("rtt_max_ms") AS "max" '
                        f'FROM "raw"."link_stats" WHERE {where} AND "protocol" = \'icmp\' GROUP BY time($__interval) fill(none)'
                    )
                ],
                unit="ms",
                no_value=none("ping samples"),
            ),
            panel(
                5,
                "timeseries",
                "Loss % (UDP, ping)",
                0,
                16,
                12,
                8,
                [
                    q(
                        'SELECT mean("loss_percent") AS "loss" FROM "raw"."link_stats" '
                        f'WHERE {where} AND "protocol" =~ /^(udp|icmp)$/ GROUP BY time($__interval), "protocol" fill(none)',
                        alias="$tag_protocol",
                    )
                ],
                unit="percent",
                no_value=none("UDP or ping samples"),
            ),
            panel(
                6,
                "timeseries",
                "Jitter (UDP, ping mdev)",
                12,
                16,
                12,
                8,
                [
                    q(
                        'SELECT mean("jitter_ms") AS "jitter" FROM "raw"."link_stats" '
                        f'WHERE {where} AND "protocol" =~ /^(udp|icmp)$/ GROUP BY time($__interval), "protocol" fill(none)',
                        alias="$tag_protocol",
                    )
                ],
                unit="ms",
                no_value=none("UDP or ping samples"),
            ),
            panel(
                8,
                "timeseries",
                "One-way delay, each direction (pScheduler latency)",
                0,
                24,
                12,
                8,
                [
                    q(
                        'SELECT mean("owd_mean_ms") AS "delay" FROM "raw"."link_stats" '
                        f"WHERE {BOTH_WAYS} AND $timeFilter AND \"protocol\" = 'owd' "
                        'GROUP BY time($__interval), "src", "dst" fill(none)',
                        alias="$tag_src → $tag_dst",
                    )
                ],
                unit="ms",
                no_value=none("one-way latency results (pScheduler latency, latencybg)"),
                description="pScheduler's latency and latencybg tests (owamp) through the bridge: one line per direction. "
                "A negative delay means the two hosts' clocks disagree by more than the delay.",
            ),
            panel(
                9,
                "timeseries",
                "One-way loss %, each direction (pScheduler latency)",
                12,
                24,
                12,
                8,
                [
                    q(
                        'SELECT mean("loss_percent") AS "loss" FROM "raw"."link_stats" '
                        f"WHERE {BOTH_WAYS} AND $timeFilter AND \"protocol\" = 'owd' "
                        'GROUP BY time($__interval), "src", "dst" fill(none)',
                        alias="$tag_src → $tag_dst",
                    )
                ],
                unit="percent",
                no_value=none("one-way latency results (pScheduler latency, latencybg)"),
                description="Loss of the packets sent one way; the loss alarm (high_loss, protocol owd) names the direction.",
            ),
            panel(
                10,
                "timeseries",
                "Collapse detector's baseline (TCP)",
                0,
                32,
                24,
                8,
                [
                    q(
                        'SELECT last("baseline_bps") AS "baseline" FROM "raw"."link_stats" '
                        f"WHERE {where} AND {DETECTOR_BASELINE} AND {READY} "
                        'GROUP BY time($__interval), "series" fill(none)',
                        alias="baseline $tag_series",
                    ),
                    q(
                        'SELECT last("baseline_spread_bps") AS "spread" FROM "raw"."link_stats" '
                        f"WHERE {where} AND {DETECTOR_BASELINE} AND {READY} "
                        'GROUP BY time($__interval), "series" fill(none)',
                        "B",
                        alias="spread $tag_series",
                    ),
                ],
                unit="bps",
                no_value=LEARNING_BASELINE,
                description="The baseline each TCP probe's runs are judged against by the throughput collapse detector, "
                "after each run: the median of its recent healthy runs and their spread (1.4826 × MAD); during a "
                "collapse, the baseline frozen when it began, as the alert states it. The mesh matrix divides by it.",
            ),
            panel(
                7,
                "table",
                "Events on this link",
                0,
                40,
                24,
                7,
                [
                    q(
                        f'SELECT "kind", "severity", "cause", "message" FROM "daily"."events" WHERE {where}',
                        "A",
                        "table",
                    )
                ],
                no_value=none("events"),
            ),
        ],
        variables=[
            var_query("src", "source", 'SHOW TAG VALUES FROM "link_stats" WITH KEY = "src"'),
            var_query(
                "dst",
                "destination",
                'SHOW TAG VALUES FROM "link_stats" WITH KEY = "dst" WHERE "src" = \'$src\'',
            ),
        ],
        annotations=[events_annotation("Events", LINK)],
    )


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
        variables=[site_variable("events")],
    )


def main():
    OUT.mkdir(exist_ok=True)
    for name, build in (("mesh-overview", mesh), ("link-detail", link), ("paths", paths), ("alerts", alerts)):
        (OUT / f"{name}.json").write_text(json.dumps(build(), indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
