"""Makes the schema files of this folder from the published originals (README.md says which).

    python extract.py crd CRD.yaml VERSION OUT.json       the openAPIV3Schema of one served version
    python extract.py core _definitions.json OUT.json     Kubernetes' definitions, only those KINDS need
    python extract.py helm CHART_DIR OUT.json             every .Values path a Helm chart's templates read

Both drop every `description` (the files shrink tenfold; nothing validates on a description) and
change nothing else, so a schema here is the published one minus its prose.
"""

import json
import pathlib
import re
import sys

import yaml

# The core kinds deploy/kubernetes may use: their definitions and everything they refer to are kept.
KINDS = [
    ("v1", "ConfigMap"),
    ("v1", "Service"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "ServiceAccount"),
    ("v1", "Secret"),
    ("v1", "Namespace"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
    ("rbac.authorization.k8s.io/v1", "Role"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding"),
    ("networking.k8s.io/v1", "NetworkPolicy"),
    ("policy/v1", "PodDisruptionBudget"),
]
PREFIX = "/api/_definitions.json#/$defs/"


def strip(node):
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if not (k == "description" and isinstance(v, str))}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def refs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref":
                yield v
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)


def kind_of(d):
    p = d.get("properties", {})
    return (p.get("apiVersion", {}).get("enum", [None])[0], p.get("kind", {}).get("enum", [None])[0])


def core(src, out):
    doc = json.load(open(src))
    defs = doc["$defs"]
    roots = [n for n, d in defs.items() if kind_of(d) in KINDS]
    missing = set(KINDS) - {kind_of(defs[n]) for n in roots}
    if missing:
        sys.exit(f"no definition for {sorted(missing)}")
    keep, todo = set(), list(roots)
    while todo:
        n = todo.pop()
        if n in keep:
            continue
        keep.add(n)
        for r in refs(defs[n]):
            todo.append(r.removeprefix(PREFIX).removeprefix("#/$defs/"))
    trimmed = {n: defs[n] for n in sorted(keep)}
    text = json.dumps({"$schema": doc["$schema"], "$defs": strip(trimmed)}, indent=1, sort_keys=True)
    open(out, "w").write(text.replace(PREFIX, "#/$defs/") + "\n")


def helm(chart, out):
    """The .Values paths the templates of a chart read (a key its values.yaml only names in a
    comment is still one the chart knows), sorted."""
    paths = set()
    for p in sorted(pathlib.Path(chart, "templates").rglob("*")):
        if p.is_file():
            paths |= set(re.findall(r"\.Values((?:\.[A-Za-z0-9_]+)+)", p.read_text()))
    open(out, "w").write(json.dumps(sorted(x.lstrip(".") for x in paths), indent=1) + "\n")


def crd(src, version, out):
    doc = yaml.safe_load(open(src))
    v = next(v for v in doc["spec"]["versions"] if v["name"] == version)
    spec = doc["spec"]
    kept = {
        "group": spec["group"],
        "version": version,
        "kind": spec["names"]["kind"],
        "openAPIV3Schema": strip(v["schema"]["openAPIV3Schema"]),
    }
    open(out, "w").write(json.dumps(kept, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "crd":
        crd(*sys.argv[2:5])
    elif sys.argv[1] == "core":
        core(*sys.argv[2:4])
    elif sys.argv[1] == "helm":
        helm(*sys.argv[2:4])
    else:
        sys.exit(__doc__)
