"""Incidents through the real services: the real Flink job's correlator on mesh_story's faults,
Telegraf and InfluxDB, the alert bridge and the real Alertmanager (alerting/alertmanager.yml) with
its mail sink. In the story one source's links fail in three ways: cern → fnal collapses,
cern → triumf loses 10 % of its pings, cern → kek refuses connections. fnal and triumf are the
two degraded links (kek is down: another symptom), and every measured link from cern is
degraded, so the correlator names the host cern (tied with its first router 10.1.0.1: a host is
named before a hop that explains the same links)."""

import alertmanager as am
from conftest import rows, wait_for_series


def test_the_storys_degraded_links_are_one_incident_that_mutes_their_own_alerts(mesh_run):
    src, fnal, triumf = mesh_run["src"], mesh_run["fnal"], mesh_run["triumf"]

    stored = rows(
        wait_for_series(
            f'SELECT * FROM "daily"."events" WHERE "src" = \'{src}\' AND "kind" = \'incident_opened\'',
            timeout_s=120,
        )
    )
    assert len(stored) == 1, stored
    assert stored[0]["location_type"] == "host" and stored[0]["location_name"] == src, stored[0]
    assert stored[0]["evidence_links_degraded"] == 2, stored[0]

    def incident():
        return [
            a
            for a in am.alerts(alertname="incident_opened")
            if a["annotations"].get("location") == f"host {src}"
        ]

    (alert,) = am.wait_for(incident, 60)
    assert alert["status"]["state"] == "active", alert["status"]
    assert alert["annotations"]["headline"] == f"Incident at host {src}: 2 links", alert["annotations"]
    episode = alert["labels"]["incident"]
    members = am.alerts(alertname="incident_member", incident=episode)
    assert {(m["labels"]["src"], m["labels"]["dst"]) for m in members} == {(src, fnal), (src, triumf)}

    # the links' own alerts are held by Alertmanager and inhibited by their members
    for kind, dst in (("throughput_collapse", fnal), ("high_loss", triumf)):
        muted = am.wait_for(
            lambda kind=kind, dst=dst: [
                a for a in am.alerts(alertname=kind, src=src, dst=dst) if a["status"]["inhibitedBy"]
            ],
            60,
        )
        assert muted, (
            f"{kind} on {src} → {dst} is not inhibited: {am.alerts(alertname=kind, src=src, dst=dst)}"
        )

    # one mail for the incident, naming its place first
    mails = am.wait_for(lambda: am.mails(f"Incident at host {src}"), am.timings()["group_wait"] + 60)
    assert len(mails) == 1 and mails[0]["subject"].startswith("[FIRING] Incident at host"), [
        m["subject"] for m in mails
    ]
    body = am.mail_body(mails[0])
    assert f"{src} → {fnal} (throughput_collapse)" in body and f"{src} → {triumf} (high_loss)" in body, body
