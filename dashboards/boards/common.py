"""What every dashboard shares: the datasource, the link and site filters, the empty panels' words,
and the builders of queries, panels, variables, annotations and the dashboard itself."""

DS = {"type": "influxdb", "uid": "longhaul-influxdb"}
LINK = "\"src\" = '$src' AND \"dst\" = '$dst'"
# A mesh (pSConfig's group: `longhaul dashboards meshes` gives the variable the groups of a
# template), then sites within the view; each stands for its links from or to them. The mesh's value
# is a regex of its addresses, put in as it is (${mesh:raw}); All is .* for both.
SITE = '("src" =~ /^${mesh:raw}$/ OR "dst" =~ /^${mesh:raw}$/) AND ("src" =~ /^$site$/ OR "dst" =~ /^$site$/)'
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


MESH_ALL = {"text": "All", "value": ".*"}


def mesh_variable():
    """The meshes to narrow a fleet's view to: pSConfig's groups, each a regex of its addresses,
    which no statistic carries. The committed dashboards offer All alone; `longhaul dashboards
    meshes --psconfig TEMPLATE` writes them with the template's groups for Grafana to provision."""
    return {
        "type": "custom",
        "name": "mesh",
        "label": "mesh",
        "query": f"{MESH_ALL['text']} : {MESH_ALL['value']}",
        "options": [{**MESH_ALL, "selected": True}],
        "current": {**MESH_ALL, "selected": True},
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
        {
            "includeAll": True,
            "multi": True,
            "allValue": ".*",
            "current": {"text": ["All"], "value": ["$__all"]},
        }
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
