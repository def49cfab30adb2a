"""Every example under ingest/schemas/examples validates (or fails) against its schema.

The same example files are loaded by the Go (ingest/sample) and Java (flink-jobs) tests,
so the three languages agree on the contract.
"""

import itertools
import json
import pathlib

import pytest
from jsonschema import Draft202012Validator

SCHEMAS = pathlib.Path(__file__).resolve().parents[1] / "schemas"
EXAMPLES = SCHEMAS / "examples"


def _cases(validity):
    for folder in sorted(EXAMPLES.iterdir()):
        for f in sorted((folder / validity).glob("*.json")):
            yield pytest.param(folder.name, f, id=f"{folder.name}/{f.stem}")


def _validator(name_version):
    schema = json.loads((SCHEMAS / f"{name_version}.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


@pytest.mark.parametrize("name_version,path", _cases("valid"))
def test_valid_example_validates(name_version, path):
    errors = list(_validator(name_version).iter_errors(json.loads(path.read_text())))
    assert errors == [], [e.message for e in errors]


@pytest.mark.parametrize("name_version,path", _cases("invalid"))
def test_invalid_example_is_rejected(name_version, path):
    assert list(_validator(name_version).iter_errors(json.loads(path.read_text()))), (
        f"{path} should be invalid"
    )


def test_every_schema_has_valid_and_invalid_examples():
    for schema in SCHEMAS.glob("*.schema.json"):
        name_version = schema.name.removesuffix(".schema.json")
        assert list((EXAMPLES / name_version / "valid").glob("*.json")), name_version
        assert list((EXAMPLES / name_version / "invalid").glob("*.json")), name_version


# Messages that are about no link, keyed by something else: a bridge's host list (by the bridge).
NOT_ON_A_LINK = {"bridge_hosts"}


def test_messages_name_their_schema_and_version():
    for folder in EXAMPLES.iterdir():
        name, version = folder.name.rsplit(".v", 1)
        for f in (folder / "valid").glob("*.json"):
            msg = json.loads(f.read_text())
            assert (msg["schema"], msg["version"]) == (name, int(version)), f
            envelope = {"ts"} if name in NOT_ON_A_LINK else {"src", "dst", "probe_id", "ts"}
            assert envelope <= msg.keys(), f


# What a new version changed in a field v1 already had, on purpose: event.v2 split v1's
# window_limited cause into three. Anything else a new version changes is a new field.
CHANGED_FIELDS = {"event": {"cause"}}


def _versions():
    by_name = {}
    for f in sorted(SCHEMAS.glob("*.schema.json")):
        name, version = f.name.removesuffix(".schema.json").rsplit(".v", 1)
        by_name.setdefault(name, []).append(int(version))
    for name, versions in by_name.items():
        for old, new in itertools.pairwise(sorted(versions)):
            yield pytest.param(name, old, new, id=f"{name}.v{old}-v{new}")


@pytest.mark.parametrize("name,old,new", _versions())
def test_a_new_version_keeps_the_old_fields(name, old, new):
    """Consumers read every version of a topic's schema, so a new version adds optional fields and
    keeps the old ones as they were (bar CHANGED_FIELDS): a v1 producer's message means the same."""
    a = json.loads((SCHEMAS / f"{name}.v{old}.schema.json").read_text())
    b = json.loads((SCHEMAS / f"{name}.v{new}.schema.json").read_text())
    assert a["required"] == b["required"]
    kept = set(a["properties"]) - {"version"} - CHANGED_FIELDS.get(name, set())
    for k in sorted(kept):
        was, now = dict(a["properties"][k]), dict(b["properties"][k])
        if "enum" in was and "enum" in now:  # an enum may gain values (event kinds), never lose one
            assert was.pop("enum") == now.pop("enum")[: len(a["properties"][k]["enum"])], k
        assert was == now, k
    assert set(a["properties"]) <= set(b["properties"])
    assert b["properties"]["version"] == {"const": new}
