"""pScheduler's latencybg results end to end: posted by the HTTP archiver to the agent as pScheduler
bridge, published as latency samples, turned by the Flink job into one-way statistics and a loss
alarm, written by Telegraf to InfluxDB (mesh_run, mesh_story.powstream_results). The alarm names
the lossy direction and the other direction raises none."""

from conftest import influx_query, rows


def test_one_way_loss_alarms_on_the_lossy_direction_only(mesh_run):
    src, fnal = mesh_run["src"], mesh_run["fnal"]
    q = 'SELECT * FROM "daily"."events" WHERE "kind" = \'high_loss\' AND "protocol" = \'owd\' AND "src" =~ /^{tag}-/'
    alarms = rows(influx_query(q.format(tag=mesh_run["tag"])))
    assert alarms, "no one-way loss alarm"
    assert {(a["src"], a["dst"]) for a in alarms} == {(fnal, src)}, alarms
    assert all(f"one-way path from {fnal} to {src}" in a["message"] for a in alarms), alarms
    assert all(a["evidence_loss_percent"] == 5.0 for a in alarms), alarms


def test_one_way_delay_statistics_of_each_direction_reach_influxdb(mesh_run):
    src, fnal = mesh_run["src"], mesh_run["fnal"]
    q = (
        'SELECT "owd_min_ms", "owd_mean_ms", "owd_max_ms", "loss_percent", "rtt_mean_ms" FROM "raw"."link_stats" '
        "WHERE \"protocol\" = 'owd' AND \"src\" = '{a}' AND \"dst\" = '{b}'"
    )
    there = rows(influx_query(q.format(a=src, b=fnal)))
    back = rows(influx_query(q.format(a=fnal, b=src)))
    assert len(there) >= 30 and len(back) >= 30, (len(there), len(back))
    assert all(70.0 <= r["owd_mean_ms"] <= 70.3 and r["rtt_mean_ms"] is None for r in there), there[:3]
    assert all(70.6 <= r["owd_mean_ms"] <= 70.9 for r in back), back[:3]
    assert max(r["loss_percent"] for r in there) == 0
    assert max(r["loss_percent"] for r in back) == 5.0
