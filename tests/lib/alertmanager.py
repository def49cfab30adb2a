"""Alertmanager and the local notification sink as the tests see them: the stack's Alertmanager
over HTTPS with the operator's credential (secrets/alertmanager-operator.password), its running
config, and what the sink (alerting/sink/notify_sink.py) has received under run/sink."""

import json
import os
import pathlib
import re
import subprocess
import time

import requests
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
STACK = pathlib.Path(os.environ.get("LONGHAUL_STACK_DIR", ROOT / ".stack"))
SECRETS = pathlib.Path(os.environ.get("LONGHAUL_SECRETS_DIR", STACK / "run" / "secrets"))
URL = os.environ.get(
    "LONGHAUL_ALERTMANAGER", f"https://127.0.0.1:{os.environ.get('LONGHAUL_ALERTMANAGER_PORT', '9193')}"
)
SINK = STACK / "run" / "sink"
BRIDGE_STATUS = STACK / "run" / "bridge" / "status.json"


def _auth(user="operator"):
    return (user, (SECRETS / f"alertmanager-{user}.password").read_text().rstrip("\r\n"))


def api(method, path, user="operator", **kw):
    r = requests.request(
        method, URL + path, auth=_auth(user), verify=str(SECRETS / "ca.crt"), timeout=15, **kw
    )
    r.raise_for_status()
    return r.json() if r.content else None


def alerts(**labels):
    """The alerts Alertmanager holds (active, silenced, inhibited) whose labels include labels."""
    flt = [f'{k}="{v}"' for k, v in labels.items()]
    return api("GET", "/api/v2/alerts", params={"filter": flt})


def route():
    """The running config's top route (group_wait etc., as Alertmanager parsed the file)."""
    return yaml.safe_load(api("GET", "/api/v2/status")["config"]["original"])["route"]


def seconds(duration):
    """A Prometheus duration such as 30s, 5m, 1h30m in seconds."""
    total, num = 0, ""
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    i = 0
    while i < len(duration):
        c = duration[i]
        if c.isdigit():
            num += c
            i += 1
            continue
        unit = "ms" if duration[i : i + 2] == "ms" else c
        total += int(num) * units[unit]
        num, i = "", i + len(unit)
    return total


def route_for(alertname):
    """The route an alert of this name takes, as Alertmanager walks the top route's children: the
    first whose alertname matcher takes it, its settings over the top's (a link alert waits
    LONGHAUL_ALERT_LINK_GROUP_WAIT, not the top's group_wait); the top route when none does."""
    top = route()
    for child in top.get("routes", []):
        for m in child.get("matchers", []):
            name, op, value = re.fullmatch(r'(\w+)\s*(=~|=|!=|!~)\s*"(.*)"', m).groups()
            if name != "alertname":
                continue
            hit = re.fullmatch(value, alertname) if op in ("=~", "!~") else value == alertname
            if bool(hit) == (op in ("=", "=~")):
                return {**top, **{k: v for k, v in child.items() if k not in ("routes", "matchers")}}
    return top


def timings(alertname=None):
    """The group_wait and group_interval of the route an alert of this name takes (the top
    route's without a name) and the bridge's repost interval, in seconds."""
    r = route_for(alertname) if alertname else route()
    status = json.loads(BRIDGE_STATUS.read_text())
    return {
        "group_wait": seconds(r["group_wait"]),
        "group_interval": seconds(r["group_interval"]),
        "repost": status["repost_s"],
    }


def _lines(name):
    p = SINK / name
    if not p.exists():
        return []
    return [json.loads(line) for line in p.read_text().splitlines() if line.strip()]


def mails(containing, since=0):
    """Emails the sink received after `since` (epoch s) whose subject contains `containing`."""
    return [m for m in _lines("mail.jsonl") if containing in m["subject"] and m["received"] >= since]


def mail_body(m):
    import email
    import email.policy

    msg = email.message_from_bytes((SINK / m["file"]).read_bytes(), policy=email.policy.default)
    return msg.get_body(preferencelist=("plain",)).get_content()


def webhooks(label, value, since=0):
    """Webhook calls after `since` with an alert whose label equals value."""
    return [
        w
        for w in _lines("webhook.jsonl")
        if w["received"] >= since
        and any(a["labels"].get(label) == value for a in w["payload"].get("alerts", []))
    ]


def wait_for(what, timeout_s, step=0.5):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        got = what()
        if got:
            return got
        time.sleep(step)
    return what()


def silence(*args):
    """bin/longhaul silence ARGS... as the operator; its stdout."""
    r = subprocess.run(
        [str(ROOT / "bin" / "longhaul"), "silence", *args], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    return r.stdout
