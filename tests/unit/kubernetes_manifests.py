"""deploy/kubernetes as the tests read it: the manifests of its kustomization, by kind and name,
and the validators of their schemas (test_kubernetes_manifests.py checks every manifest against
them, test_kubernetes_wiring.py and test_kubernetes_versions.py what no schema sees)."""

import copy
import json

import jsonschema
import yaml
from stack_programs import ROOT

KDIR = ROOT / "deploy/kubernetes"
KUSTOMIZATION = yaml.safe_load((KDIR / "kustomization.yaml").read_text())
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
STRIMZI_CA = "longhaul-cluster-ca-cert"  # Strimzi's <cluster>-cluster-ca-cert
SCHEMAS = ROOT / "tests/unit/testdata/kubernetes-crds"
CRDS = {
    "strimzi-1.2.0": ["kafka", "kafkanodepool", "kafkatopic", "kafkauser"],
    "flink-kubernetes-operator-1.15.0": ["flinkdeployment"],
}
CORE = json.loads((SCHEMAS / "kubernetes-1.34.0/definitions.json").read_text())


def load(path):
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


DOCS = [(f, d) for f in KUSTOMIZATION["resources"] for d in load(KDIR / f)]


def docs(kind=None):
    return [d for _, d in DOCS if kind is None or d["kind"] == kind]


def one(kind, name):
    [d] = [d for d in docs(kind) if d["metadata"]["name"] == name]
    return d


def closed(node):
    """A CRD schema as the API server applies it with strict field validation: every object that
    lists its properties and does not preserve unknown fields refuses the others."""
    if isinstance(node, list):
        return [closed(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: closed(v) for k, v in node.items()}
    if (
        "properties" in out
        and "additionalProperties" not in out
        and not out.get("x-kubernetes-preserve-unknown-fields")
    ):
        out["additionalProperties"] = False
    return out


def crd_validators():
    out = {}
    for folder, names in CRDS.items():
        for name in names:
            crd = json.loads((SCHEMAS / folder / f"{name}.json").read_text())
            schema = closed(crd["openAPIV3Schema"])
            # metadata is the API server's ObjectMeta, not the CRD's to say: Kubernetes' own schema
            schema["properties"]["metadata"] = {
                "$ref": "#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
            }
            schema["properties"]["apiVersion"] = {"enum": [f"{crd['group']}/{crd['version']}"]}
            schema["properties"]["kind"] = {"enum": [crd["kind"]]}
            schema["$defs"] = CORE["$defs"]
            out[(f"{crd['group']}/{crd['version']}", crd["kind"])] = jsonschema.Draft202012Validator(schema)
    return out


def core_validators():
    out = {}
    for name, d in CORE["$defs"].items():
        p = d.get("properties", {})
        if "enum" in p.get("apiVersion", {}) and "enum" in p.get("kind", {}):
            schema = {"$ref": f"#/$defs/{name}", "$defs": CORE["$defs"]}
            out[(p["apiVersion"]["enum"][0], p["kind"]["enum"][0])] = jsonschema.Draft202012Validator(schema)
    return out


VALIDATORS = {**core_validators(), **crd_validators()}


def errors(doc):
    v = VALIDATORS.get((doc.get("apiVersion"), doc.get("kind")))
    assert v is not None, (
        f"no schema for {doc.get('apiVersion')} {doc.get('kind')}: add it to testdata/kubernetes-crds"
    )
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(doc)]


def pod_specs():
    """{workload: its pod spec} of every manifest that runs containers."""
    out = {}
    for d in docs():
        spec = d.get("spec", {})
        if d["kind"] in ("Deployment", "StatefulSet", "Job"):
            pod = copy.deepcopy(spec["template"]["spec"])
            # a StatefulSet's claims are its pods' volumes too
            pod.setdefault("volumes", []).extend(
                {"name": t["metadata"]["name"], "persistentVolumeClaim": {}}
                for t in spec.get("volumeClaimTemplates", [])
            )
            out[d["metadata"]["name"]] = pod
        elif d["kind"] == "FlinkDeployment":
            out[d["metadata"]["name"]] = spec["podTemplate"]["spec"]
    return out


def helm_values(chart):
    return yaml.safe_load((KDIR / f"helm/{chart}-values.yaml").read_text())


def file_on_volume(path, mounts):
    """The (volume, file name) a path is on, or None."""
    for mount, volume in mounts.items():
        if path == mount or path.startswith(mount + "/"):
            return volume, path[len(mount) + 1 :]
    return None
