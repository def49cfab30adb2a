"""Link detail: one link's throughput, latency, loss, baseline and events."""

from boards.common import (
    BOTH_WAYS,
    DETECTOR_BASELINE,
    IN_RANGE,
    LEARNING_BASELINE,
    LEARNING_ROLLING,
    LINK,
    READY,
    ROLLING,
    dashboard,
    events_annotation,
    panel,
    q,
    var_query,
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
