"""The one InfluxDB client of the Python tests and benchmarks: InfluxQL over /query, times in
epoch milliseconds. The names are those every Longhaul program reads: LONGHAUL_INFLUX (address),
LONGHAUL_INFLUX_DB, and who the tests are to InfluxDB: LONGHAUL_INFLUX_USER with its password in
LONGHAUL_INFLUX_PASSWORD_FILE (or LONGHAUL_INFLUX_PASSWORD), over https trusting LONGHAUL_INFLUX_CA.
The password is never printed: requests' errors carry no Authorization header."""

import os

import requests

URL = os.environ.get("LONGHAUL_INFLUX", "https://127.0.0.1:8086")
DB = os.environ.get("LONGHAUL_INFLUX_DB", "longhaul")
USER = os.environ.get("LONGHAUL_INFLUX_USER", "")
CA = os.environ.get("LONGHAUL_INFLUX_CA", "")


def password_of(path):
    """A password file's content without its trailing newline (as settings.Secret reads it)."""
    with open(path) as f:
        pw = f.read().rstrip("\r\n")
    if not pw:
        raise ValueError(f"password file {path} is empty")
    return pw


def credentials():
    """(user, password) from the environment, or None for anonymous."""
    if not USER:
        return None
    path = os.environ.get("LONGHAUL_INFLUX_PASSWORD_FILE", "")
    pw = password_of(path) if path else os.environ.get("LONGHAUL_INFLUX_PASSWORD", "")
    if not pw:
        raise ValueError(
            f"InfluxDB user {USER}: no password (LONGHAUL_INFLUX_PASSWORD_FILE or LONGHAUL_INFLUX_PASSWORD)"
        )
    return USER, pw


def stack_user(name):
    """(name, password) of one of the stack's InfluxDB users (admin, writer, reader), read from
    its file in LONGHAUL_SECRETS_DIR: for tests that act as a given role."""
    return name, password_of(os.path.join(os.environ["LONGHAUL_SECRETS_DIR"], f"influx-{name}.password"))


def request(method, path, auth="env", timeout=10, **kwargs):
    """One HTTP request to InfluxDB (path like "/query"): as the environment's user, or as auth
    ((user, password), or None for anonymous). Returns the response, whatever its status."""
    return requests.request(
        method,
        URL.rstrip("/") + path,
        auth=credentials() if auth == "env" else auth,
        verify=CA or True,
        timeout=timeout,
        **kwargs,
    )


def write(lines, rp=None, db=DB, auth="env"):
    """POSTs line protocol to /write; returns the response (204 when stored)."""
    params = {"db": db, **({"rp": rp} if rp else {})}
    return request("POST", "/write", auth=auth, params=params, data=lines.encode())


def series(q, db=DB, auth="env", timeout=10):
    """The result series of one statement (a list of {name, tags, columns, values}); an error in
    the answer fails with InfluxDB's own message (a refusal names the user)."""
    r = request("POST", "/query", auth=auth, timeout=timeout, params={"db": db, "epoch": "ms"}, data={"q": q})
    if r.status_code in (401, 403):
        who = (
            f"user {auth[0] if auth not in ('env', None) else USER}" if (auth or USER) else "anonymous access"
        )
        raise AssertionError(f"InfluxDB refused {who} (HTTP {r.status_code}: {r.text.strip()})")
    r.raise_for_status()
    res = r.json()["results"][0]
    assert "error" not in res, f"{res['error']} (query: {q})"
    return res.get("series", [])


def rows(q, db=DB, auth="env"):
    """The statement's rows as dicts: each series' tags and the row's columns by name."""
    return [
        {**s.get("tags", {}), **dict(zip(s["columns"], values, strict=True))}
        for s in series(q, db, auth)
        for values in s["values"]
    ]


def health():
    """True if /health (open without credentials) says pass."""
    try:
        return request("GET", "/health", auth=None).json().get("status") == "pass"
    except (requests.RequestException, ValueError):
        return False
