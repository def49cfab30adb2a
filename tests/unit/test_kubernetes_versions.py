"""deploy/kubernetes against the rest of the project: its versions are docker-compose's; the Helm
values name only keys the charts know; InfluxDB is secured as on the native stack; every daemon
scripts/stack supervises has its Kubernetes counterpart. (The wiring of mounts, secrets and Kafka
users: test_kubernetes_wiring.py; schemas: test_kubernetes_manifests.py.)
"""

import copy
import json

import pytest
import yaml
from kubernetes_manifests import COMPOSE, KDIR, SCHEMAS, file_on_volume, helm_values, one, pod_specs
from stack_programs import ROOT, deployed


def image_tag(image):
    return image.rpartition(":")[2]


def test_versions_are_those_of_docker_compose():
    compose = {name: image_tag(s["image"]) for name, s in COMPOSE.items() if "image" in s}
    assert one("Kafka", "longhaul")["spec"]["kafka"]["version"] == compose["kafka"]
    fd = one("FlinkDeployment", "longhaul-link-monitor")["spec"]
    major, minor, _ = compose["jobmanager"].split("-")[0].split(".")
    assert fd["flinkVersion"] == f"v{major}_{minor}"
    assert "FROM flink:" + compose["jobmanager"] in (ROOT / "flink-jobs/Dockerfile").read_text()
    images = {c["image"] for pod in pod_specs().values() for c in pod["containers"] if "image" in c}
    assert f"telegraf:{compose['telegraf']}" in images
    assert f"prom/alertmanager:{compose['alertmanager']}" in images
    assert helm_values("influxdb")["image"]["tag"] == compose["influxdb"]
    grafana = helm_values("grafana")["image"]
    assert f"{grafana['repository']}:{grafana['tag']}" == COMPOSE["grafana"]["image"]


# Subtrees of the charts' values that the chart passes on as they are (InfluxDB's config sections,
# grafana.ini, environment variables), besides those whose default is empty ({} or []).
FREE_FORM = {"influxdb": {("config",)}, "grafana": {("grafana.ini",), ("env",)}}


def unknown_keys(values, defaults, templates, free, path=()):
    """Keys of values that the chart neither has a default for nor reads in a template: Helm
    ignores them without a word, so each is a typo or a key of another chart version."""
    for key, value in values.items():
        p = path + (key,)
        dotted = ".".join(p)
        read = {t for t in templates if t == dotted or t.startswith(dotted + ".")}
        if key not in defaults and not read:
            yield dotted
        elif (
            isinstance(value, dict)
            and p not in free
            and isinstance(defaults.get(key), dict)
            and defaults[key]
        ):
            yield from unknown_keys(value, defaults[key], templates, free, p)


@pytest.mark.parametrize("chart,version", [("influxdb", "4.12.5"), ("grafana", "12.11.1")])
def test_the_helm_values_name_only_keys_the_chart_knows(chart, version):
    defaults = yaml.safe_load((SCHEMAS / f"helm-charts/{chart}-{version}-values.yaml").read_text())
    templates = set(json.loads((SCHEMAS / f"helm-charts/{chart}-{version}-templates.json").read_text()))
    values = helm_values(chart)
    assert list(unknown_keys(values, defaults, templates, FREE_FORM[chart])) == []
    assert f"--version {version}" in (KDIR / f"helm/{chart}-values.yaml").read_text()
    broken = copy.deepcopy(values)
    broken["persistance"] = broken.pop("persistence")
    broken["image"]["tagg"] = broken["image"].pop("tag")
    assert list(unknown_keys(broken, defaults, templates, FREE_FORM[chart])) == ["image.tagg", "persistance"]


def test_influxdb_is_secured_as_on_the_native_stack():
    http = helm_values("influxdb")["config"]["http"]
    assert (
        http["auth-enabled"] is True and http["https-enabled"] is True and http["pprof-auth-enabled"] is True
    )
    volume, name = file_on_volume(
        http["https-certificate"],
        {
            m["mountPath"]: v
            for m in helm_values("influxdb")["mountPoints"]
            for v in helm_values("influxdb")["volumes"]
            if v["name"] == m["name"]
        },
    )
    assert volume["secret"]["secretName"] == "longhaul-influxdb-tls" and name == "influxdb.pem"


def test_influxdbs_pods_take_their_http_port_alone():
    """The chart binds InfluxDB's backup and restore port (no authentication) on every address of
    the pod: the policy selects the pods the chart labels for the release and admits 8086 only."""
    assert "helm install influxdb influxdata/influxdb" in (KDIR / "helm/influxdb-values.yaml").read_text(), (
        "the release is named influxdb"
    )
    assert "nameOverride" not in helm_values("influxdb"), "the chart's name labels the pods"
    policy = one("NetworkPolicy", "influxdb-http-only")["spec"]
    assert policy["podSelector"] == {
        "matchLabels": {"app.kubernetes.io/name": "influxdb", "app.kubernetes.io/instance": "influxdb"}
    }
    assert policy["policyTypes"] == ["Ingress"]
    assert policy["ingress"] == [{"ports": [{"protocol": "TCP", "port": 8086}]}]
    assert helm_values("influxdb")["config"]["http"].get("bind-address", ":8086") == ":8086"


# Where each daemon scripts/stack supervises runs on Kubernetes: (kind, name) of its manifest, or
# the Helm values file. The keeper is the Flink operator's work (upgradeMode savepoint, above).
COUNTERPARTS = {
    "kafka": ("Kafka", "longhaul"),
    "flink-jobmanager": ("FlinkDeployment", "longhaul-link-monitor"),
    "flink-taskmanager": ("FlinkDeployment", "longhaul-link-monitor"),
    "job-keeper": ("FlinkDeployment", "longhaul-link-monitor"),
    "influxdb": ("helm", "influxdb"),
    # the relay of InfluxDB's HTTP port out of its network namespace: the chart's Service
    "influxdb-http": ("helm", "influxdb"),
    "telegraf": ("Deployment", "telegraf"),
    "watchdog": ("Deployment", "watchdog"),
    "alertmanager": ("StatefulSet", "alertmanager"),
    "alert-bridge": ("Deployment", "alert-bridge"),
}


@pytest.mark.parametrize("daemon", sorted(deployed()))
def test_every_daemon_of_the_stack_has_a_kubernetes_counterpart(daemon):
    assert daemon in COUNTERPARTS, (
        f"scripts/stack supervises {daemon}: deploy it in deploy/kubernetes and name it here"
    )
    kind, name = COUNTERPARTS[daemon]
    if kind == "helm":
        assert (KDIR / f"helm/{name}-values.yaml").exists()
    else:
        assert one(kind, name)
    words = deployed()[daemon]
    if words[0].endswith("/longhaul") and daemon != "job-keeper":
        # the same longhaul command with the same flags (the status file's path aside)
        [c] = pod_specs()[name]["containers"]
        flags = [w for w in words[1:] if w.startswith("--")]
        assert c["command"][:2] == ["longhaul", words[1]]
        assert [w for w in c["command"] if w.startswith("--")] == flags
