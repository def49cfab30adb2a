"""The one InfluxDB client of the Python tests and benchmarks: InfluxQL over /query, times in
epoch milliseconds. The address and database are LONGHAUL_INFLUX and LONGHAUL_INFLUX_DB (the
names every Longhaul program reads); INFLUX_TOKEN, when set, is sent as a token."""
import os

import requests

URL = os.environ.get("LONGHAUL_INFLUX", "http://127.0.0.1:8086")
DB = os.environ.get("LONGHAUL_INFLUX_DB", "longhaul")


def series(q, db=DB):
    """The result series of one statement (a list of {name, tags, columns, values}); an error in
    the answer fails with InfluxDB's own message."""
    headers = {"Authorization": "Token " + os.environ["INFLUX_TOKEN"]} if os.environ.get("INFLUX_TOKEN") else {}
    r = requests.post(f"{URL}/query", params={"db": db, "epoch": "ms"}, data={"q": q}, headers=headers, timeout=10)
    r.raise_for_status()
    res = r.json()["results"][0]
    assert "error" not in res, f"{res['error']} (query: {q})"
    return res.get("series", [])


def rows(q, db=DB):
    """The statement's rows as dicts: each series' tags and the row's columns by name."""
    return [{**s.get("tags", {}), **dict(zip(s["columns"], values))} for s in series(q, db) for values in s["values"]]
