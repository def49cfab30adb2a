"""deploy/kubernetes checked without a cluster: every manifest validates against the schema the
API server would apply: the CRDs of Strimzi 1.2.0 and of the Flink Kubernetes Operator 1.15.0,
Kubernetes 1.34's definitions for core kinds (tests/unit/testdata/kubernetes-crds, README there
says where each came from). A CRD's schema is closed here wherever the CRD does not say
`x-kubernetes-preserve-unknown-fields`: the API server prunes an unknown field silently, and
`kubectl apply` (strict field validation, its default) refuses it, so a misspelt field is an error
in both. Corrupted copies (a misspelt field, a wrong type, a value outside an enum) must fail, so
the validation is not vacuous. What no schema sees is test_kubernetes_wiring.py's and test_kubernetes_versions.py's.
"""

import copy

import pytest
from kubernetes_manifests import DOCS, KDIR, KUSTOMIZATION, VALIDATORS, docs, errors, one

# --- schemas ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "doc", [pytest.param(d, id=f"{f}:{d['kind']}/{d['metadata']['name']}") for f, d in DOCS]
)
def test_every_manifest_validates_against_its_schema(doc):
    assert errors(doc) == []


def test_every_manifest_of_the_folder_is_in_the_kustomization():
    files = {str(p.relative_to(KDIR)) for p in KDIR.rglob("*.yaml")} - {"kustomization.yaml"}
    helm = {f for f in files if f.startswith("helm/")}
    assert set(KUSTOMIZATION["resources"]) == files - helm


def test_every_kind_the_manifests_use_is_from_the_targeted_operators_or_kubernetes():
    kinds = {(d["apiVersion"], d["kind"]) for d in docs()}
    assert {
        ("kafka.strimzi.io/v1", "Kafka"),
        ("kafka.strimzi.io/v1", "KafkaNodePool"),
        ("kafka.strimzi.io/v1", "KafkaTopic"),
        ("kafka.strimzi.io/v1", "KafkaUser"),
        ("flink.apache.org/v1beta1", "FlinkDeployment"),
    } <= kinds
    assert kinds <= set(VALIDATORS)


def at(doc, path):
    """The parent object of path (a dotted path, list indexes as numbers) and the last key."""
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    node = doc
    for k in keys[:-1]:
        node = node[k]
    return node, keys[-1]


def misspell(path):
    def corrupt(doc):
        parent, key = at(doc, path)
        parent[key + "x"] = parent.pop(key)

    return corrupt


def put(path, value):
    def corrupt(doc):
        parent, key = at(doc, path)
        parent[key] = value

    return corrupt


# (kind, name, corruption, what it breaks): each must turn a valid manifest into an invalid one
CORRUPTIONS = [
    ("Kafka", "longhaul", misspell("spec.kafka.listeners"), "misspelt field"),
    ("Kafka", "longhaul", put("spec.kafka.listeners.0.tls", "yes"), "string for a boolean"),
    (
        "Kafka",
        "longhaul",
        put("spec.kafka.listeners.0.authentication.type", "scram-sha-256"),
        "not in the enum",
    ),
    ("Kafka", "longhaul", misspell("spec.entityOperator.userOperator"), "misspelt field"),
    ("KafkaNodePool", "dual", put("spec.replicas", "3"), "string for an integer"),
    ("KafkaNodePool", "dual", put("spec.roles", ["broker", "zookeeper"]), "not in the enum"),
    ("KafkaTopic", "longhaul-raw-throughput", put("spec.partitions", "4"), "string for an integer"),
    ("KafkaTopic", "longhaul-raw-throughput", misspell("spec.topicName"), "misspelt field"),
    (
        "KafkaUser",
        "flink",
        put("spec.authorization.acls.0.resource.patternType", "prefixed"),
        "kadm's spelling, not Strimzi's",
    ),
    ("KafkaUser", "flink", put("spec.authorization.acls.0.operations", ["READ"]), "not in the enum"),
    ("KafkaUser", "watchdog", misspell("spec.authentication.type"), "misspelt field"),
    (
        "FlinkDeployment",
        "longhaul-link-monitor",
        put("spec.job.upgradeMode", "savepoints"),
        "not in the enum",
    ),
    ("FlinkDeployment", "longhaul-link-monitor", put("spec.flinkVersion", "v2_9"), "not in the enum"),
    ("FlinkDeployment", "longhaul-link-monitor", misspell("spec.job.parallelism"), "misspelt field"),
    (
        "FlinkDeployment",
        "longhaul-link-monitor",
        misspell("spec.podTemplate.spec.containers.0.volumeMounts"),
        "misspelt field deep in the pod",
    ),
    (
        "FlinkDeployment",
        "longhaul-link-monitor",
        put("spec.taskManager.resource.cpu", "two"),
        "string for a number",
    ),
    ("Deployment", "telegraf", put("spec.replicas", "1"), "string for an integer"),
    (
        "Deployment",
        "telegraf",
        misspell("spec.template.spec.containers.0.volumeMounts.0.mountPath"),
        "misspelt field",
    ),
    ("Deployment", "watchdog", misspell("spec.template.spec.containers.0.env.0.value"), "misspelt field"),
    (
        "Deployment",
        "alert-bridge",
        put("spec.template.spec.volumes.0.projected.sources.0.secret.items", "password"),
        "string for a list",
    ),
    (
        "StatefulSet",
        "alertmanager",
        misspell("spec.volumeClaimTemplates.0.spec.accessModes"),
        "misspelt field",
    ),
    ("Job", "longhaul-influxdb-setup", put("spec.backoffLimit", "20"), "string for an integer"),
    (
        "ConfigMap",
        "longhaul-alert-settings",
        put("data.LONGHAUL_ALERT_GROUP_WAIT", 30),
        "integer for a string",
    ),
    ("PersistentVolumeClaim", "longhaul-flink-state", misspell("spec.accessModes"), "misspelt field"),
    ("Service", "alertmanager", put("spec.ports.0.port", "9093"), "string for an integer"),
    ("Namespace", "longhaul", misspell("metadata.name"), "misspelt field in metadata"),
]


@pytest.mark.parametrize(
    "kind,name,corrupt,why", [pytest.param(*c, id=f"{c[0]}/{c[1]}: {c[3]}") for c in CORRUPTIONS]
)
def test_a_corrupted_copy_fails_validation(kind, name, corrupt, why):
    doc = copy.deepcopy(one(kind, name))
    assert errors(doc) == []
    corrupt(doc)
    assert errors(doc), f"{why}: still valid"


@pytest.mark.parametrize("doc", [pytest.param(d, id=f"{d['kind']}/{d['metadata']['name']}") for d in docs()])
def test_every_manifest_with_an_unknown_top_level_field_fails(doc):
    doc = copy.deepcopy(doc)
    doc["spec" if "spec" in doc else "metadata"]["bogus"] = 1
    assert errors(doc)
