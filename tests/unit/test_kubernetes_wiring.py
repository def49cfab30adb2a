"""deploy/kubernetes, what no schema sees (Kafka's topics and users: test_kubernetes_kafka.py):
every Secret and ConfigMap mounted is made by secrets.sh (from files
scripts/secrets.sh makes), configmaps.sh (from files in the repo) or Strimzi, and no secret value
is in a manifest; every *_FILE path lies on a mounted volume; each workload's Kafka user is the
Secret it mounts; the Flink job keeps its state on the mounted volume and upgrades by savepoint;
(versions, Helm values and the stack's daemons: test_kubernetes_versions.py; schemas:
test_kubernetes_manifests.py).
"""

import os
import pathlib
import re
import stat
import subprocess

import pytest
import yaml
from kubernetes_manifests import (
    COMPOSE,
    KDIR,
    KUSTOMIZATION,
    STRIMZI_CA,
    docs,
    file_on_volume,
    helm_values,
    one,
    pod_specs,
)
from stack_programs import ROOT

# --- what the workloads mount and read -----------------------------------------------------------


def volume_sources(volume):
    """(kind, name, keys or None for all) of every Secret or ConfigMap a volume projects."""
    if "secret" in volume:
        s = volume["secret"]
        yield "secret", s["secretName"], [i["key"] for i in s["items"]] if "items" in s else None
    if "configMap" in volume:
        c = volume["configMap"]
        yield "configmap", c["name"], [i["key"] for i in c["items"]] if "items" in c else None
    for src in volume.get("projected", {}).get("sources", []):
        for kind in ("secret", "configMap"):
            if kind in src:
                yield kind.lower(), src[kind]["name"], [i["key"] for i in src[kind].get("items", [])] or None


def secrets_sh_files():
    """The files scripts/secrets.sh makes for docker-compose (compose_secrets), read from it."""
    text = (ROOT / "scripts/secrets.sh").read_text()
    body = text[text.index("compose_secrets() {") :]
    body = body[: body.index("\n}\n")]
    files = {"ca.crt", "ca.key", "alertmanager-web.yml"}
    files |= {f"{n}.pem" for n in re.findall(r'make_cert "\$d" ([\w-]+)', body)}
    if 'make_internal_cert "$d"' in body:
        files.add("flink-internal.p12")
    loop = re.search(r"for f in (.*?); do\s+make_password", body, re.S).group(1)
    files |= {f"{n}.password" for n in loop.replace("\\\n", " ").split()}
    return files


@pytest.fixture(scope="module")
def created(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kubectl")
    log = tmp / "log"
    fake = tmp / "kubectl"
    fake.write_text(f'#!/bin/sh\n[ "$1" = create ] && printf "%s\\n" "$*" >>{log}\ncat >/dev/null\nexit 0\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    folder = tmp / "secrets"
    folder.mkdir()
    for f in secrets_sh_files():
        (folder / f).write_text("x")
    env = {"PATH": os.environ["PATH"], "KUBECTL": str(fake)}
    subprocess.run(["bash", str(KDIR / "secrets.sh"), str(folder)], check=True, capture_output=True, env=env)
    subprocess.run(["bash", str(KDIR / "configmaps.sh")], check=True, capture_output=True, env=env)
    out = {}
    for line in log.read_text().splitlines():
        words = line.split()
        kind, name = ("secret", words[3]) if words[1] == "secret" else ("configmap", words[2])
        keys = []
        for w in words:
            if w.startswith("--from-literal="):
                keys.append(w.split("=")[1])
            elif w.startswith("--from-file="):
                key, _, path = w.removeprefix("--from-file=").rpartition("=")
                p = pathlib.Path(path or key)
                assert p.exists(), f"{name}: {p} does not exist"
                keys += (
                    [key]
                    if key
                    else ([f.name for f in p.iterdir() if f.is_file()] if p.is_dir() else [p.name])
                )
        out[(kind, name)] = set(keys)
    return out


def strimzi_secrets():
    """Secrets Strimzi makes: one per KafkaUser (its password, or its certificate), and the cluster CA."""
    keys = {
        "scram-sha-512": {"password", "sasl.jaas.config"},
        "tls": {"ca.crt", "user.crt", "user.key", "user.p12", "user.password"},
    }
    out = {
        ("secret", u["metadata"]["name"]): keys[u["spec"]["authentication"]["type"]]
        for u in docs("KafkaUser")
    }
    out[("secret", STRIMZI_CA)] = {"ca.crt", "ca.p12", "ca.password"}
    return out


def mounted():
    """(workload, kind, name, keys) of every Secret and ConfigMap mounted, Helm values included."""
    for workload, pod in pod_specs().items():
        for v in pod.get("volumes", []):
            for kind, name, keys in volume_sources(v):
                yield workload, kind, name, keys
        for c in pod["containers"]:
            for e in c.get("envFrom", []):
                if "configMapRef" in e:
                    yield workload, "configmap", e["configMapRef"]["name"], None
    for v in helm_values("influxdb")["volumes"]:
        for kind, name, keys in volume_sources(v):
            yield "influxdb", kind, name, keys
    yield (
        "influxdb",
        "secret",
        helm_values("influxdb")["setDefaultUser"]["user"]["existingSecret"],
        ["influxdb-user", "influxdb-password"],
    )
    grafana = helm_values("grafana")
    for m in grafana["extraSecretMounts"]:
        yield "grafana", "secret", m["secretName"], None
    for m in grafana["extraConfigmapMounts"]:
        yield "grafana", "configmap", m["configMap"], None
    yield (
        "grafana",
        "secret",
        grafana["admin"]["existingSecret"],
        [grafana["admin"]["userKey"], grafana["admin"]["passwordKey"]],
    )


@pytest.mark.parametrize(
    "workload,kind,name,keys", [pytest.param(*m, id=f"{m[0]}:{m[1]}/{m[2]}") for m in mounted()]
)
def test_every_secret_and_configmap_mounted_is_made_with_its_keys(created, workload, kind, name, keys):
    defined = {("configmap", d["metadata"]["name"]): set(d["data"]) for d in docs("ConfigMap")}
    have = {**created, **strimzi_secrets(), **defined}
    assert (kind, name) in have, (
        f"{workload} mounts {kind} {name}, which neither secrets.sh, configmaps.sh nor Strimzi makes"
    )
    assert set(keys or []) <= have[(kind, name)]


def test_no_secret_value_is_written_in_a_manifest_or_values_file():
    assert docs("Secret") == []
    for f in [
        *KUSTOMIZATION["resources"],
        *(str(p.relative_to(KDIR)) for p in (KDIR / "helm").glob("*.yaml")),
    ]:
        for d in yaml.safe_load_all((KDIR / f).read_text()):
            for key, value in walk(d):
                if re.search(r"passw(or)?d|token", str(key), re.I):
                    # a file's path, or the key of a Secret: never the value itself
                    assert isinstance(value, str) and (
                        value.startswith("/") or re.fullmatch(r"[\w.-]+", value)
                    ), f"{f}: {key}: {value}"
    for workload, pod in pod_specs().items():
        for c in pod["containers"]:
            for e in c.get("env", []):
                assert not re.search(r"PASSWORD$|TOKEN$", e["name"]), (
                    f"{workload}: {e['name']} holds a secret: give its _FILE"
                )


def walk(node, key=None):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v, key)
    else:
        yield key, node


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def mount_paths(pod, container):
    """{mount path: the volume} of a container."""
    vols = {v["name"]: v for v in pod.get("volumes", [])}
    return {m["mountPath"]: vols[m["name"]] for m in container.get("volumeMounts", [])}


def projected_files(volume):
    if "secret" in volume:
        items = volume["secret"].get("items")
        return {i["path"] for i in items} if items else None
    if "projected" in volume:
        return {
            i["path"]
            for s in volume["projected"]["sources"]
            for k in ("secret", "configMap")
            if k in s
            for i in s[k].get("items", [])
        }
    return None


@pytest.mark.parametrize("workload", sorted(pod_specs()))
def test_every_file_a_workload_is_told_to_read_is_on_a_mounted_volume(workload):
    pod = pod_specs()[workload]
    for c in pod["containers"]:
        mounts = mount_paths(pod, c)
        words = c.get("command", []) + c.get("args", []) + [v for v in env_of(c).values() if v]
        if workload == "longhaul-link-monitor":
            words += one("FlinkDeployment", workload)["spec"]["job"]["args"]
        paths = {w for w in words if re.fullmatch(r"/(run/secrets|etc/longhaul)/[\w./-]+", w)}
        paths |= set(re.findall(r"cat (/run/secrets/[\w./-]+)", " ".join(c.get("command", []))))
        assert paths, f"{workload} reads no file: the test looks in the wrong place"
        for p in paths:
            on = file_on_volume(p, mounts)
            assert on, f"{workload}: {p} is on no mounted volume"
            files = projected_files(on[0])
            assert files is None or on[1] == "" or on[1] in files, (
                f"{workload}: {p}: the volume holds only {sorted(files)}"
            )


def kafka_user_of(workload):
    pod = pod_specs()[workload]
    [c] = pod["containers"]
    if workload == "longhaul-link-monitor":
        args = one("FlinkDeployment", workload)["spec"]["job"]["args"]
        opts = dict(zip(args[::2], args[1::2], strict=True))
        return opts["--kafka-user"], opts["--kafka-password-file"], opts["--kafka"]
    env = env_of(c)
    if "LONGHAUL_TELEGRAF_KAFKA_USER" in env:
        pw = re.search(r'LONGHAUL_TELEGRAF_KAFKA_PASSWORD="\$\(cat ([^)]+)\)"', c["command"][-1]).group(1)
        return env["LONGHAUL_TELEGRAF_KAFKA_USER"], pw, env["LONGHAUL_KAFKA"]
    return env.get("LONGHAUL_KAFKA_USER"), env.get("LONGHAUL_KAFKA_PASSWORD_FILE"), env.get("LONGHAUL_KAFKA")


@pytest.mark.parametrize("workload", ["longhaul-link-monitor", "telegraf", "watchdog", "alert-bridge"])
def test_each_kafka_client_logs_in_as_a_kafka_user_with_that_users_password_on_the_tls_listener(workload):
    user, password_file, bootstrap = kafka_user_of(workload)
    assert user in {u["metadata"]["name"] for u in docs("KafkaUser")}
    pod = pod_specs()[workload]
    volume, name = file_on_volume(password_file, mount_paths(pod, pod["containers"][0]))
    sources = [
        (s, i)
        for v in [volume]
        for s in (
            [v["secret"] | {"name": v["secret"]["secretName"]}]
            if "secret" in v
            else [s["secret"] for s in v["projected"]["sources"] if "secret" in s]
        )
        for i in s["items"]
    ]
    [(secret, item)] = [(s, i) for s, i in sources if i["path"] == name]
    assert (secret["name"], item["key"]) == (user, "password"), (
        f"{workload} logs in as {user} with {secret['name']}'s password"
    )
    [listener] = [
        lst for lst in one("Kafka", "longhaul")["spec"]["kafka"]["listeners"] if lst["type"] == "internal"
    ]
    assert bootstrap == f"longhaul-kafka-bootstrap:{listener['port']}"


def test_the_flink_job_may_use_its_group_and_transactional_ids():
    args = one("FlinkDeployment", "longhaul-link-monitor")["spec"]["job"]["args"]
    job_name = dict(zip(args[::2], args[1::2], strict=True))["--job-name"]
    acls = one("KafkaUser", "flink")["spec"]["authorization"]["acls"]
    for kind in ("group", "transactionalId"):
        assert any(
            a["resource"]["type"] == kind
            and a["resource"]["patternType"] == "prefix"
            and job_name.startswith(a["resource"]["name"])
            for a in acls
        ), kind


def test_the_flink_job_keeps_its_state_on_the_shared_volume_and_upgrades_by_savepoint():
    fd = one("FlinkDeployment", "longhaul-link-monitor")["spec"]
    conf = fd["flinkConfiguration"]
    assert fd["job"]["upgradeMode"] == "savepoint" and fd["job"]["state"] == "running"
    assert conf["high-availability.type"] == "kubernetes"
    assert conf["web.submit.enable"] == "false", "application mode: the REST API takes no jar"
    assert conf["execution.checkpointing.externalized-checkpoint-retention"] == "RETAIN_ON_CANCELLATION"
    pod = fd["podTemplate"]["spec"]
    mounts = mount_paths(pod, pod["containers"][0])
    for key in (
        "execution.checkpointing.dir",
        "execution.checkpointing.savepoint-dir",
        "high-availability.storageDir",
    ):
        volume, _ = file_on_volume(conf[key].removeprefix("file://"), mounts)
        claim = one("PersistentVolumeClaim", volume["persistentVolumeClaim"]["claimName"])
        assert claim["spec"]["accessModes"] == ["ReadWriteMany"], key
    # the settings docker-compose's Flink runs with (heap state, restart forever); its memory, slots
    # and collector are rendered into both from deploy/services.yaml (deploy/gen, rendered_in)
    compose = yaml.safe_load(COMPOSE["jobmanager"]["environment"]["FLINK_PROPERTIES"])
    for key in (
        "state.backend.type",
        "restart-strategy.type",
        "execution.checkpointing.num-retained",
    ):
        assert str(conf[key]) == str(compose[key]), key


def longhaul_settings():
    names = set()
    for p in [*ROOT.glob("internal/settings/*.go"), *ROOT.glob("operator/**/*.go")]:
        names |= set(re.findall(r'Env:\s*"(LONGHAUL_\w+)"', p.read_text()))
        names |= set(re.findall(r'"(LONGHAUL_\w+)"', p.read_text()))
    return names


@pytest.mark.parametrize("workload", sorted(pod_specs()))
def test_every_environment_variable_is_one_its_program_reads(workload):
    known = {"telegraf": TELEGRAF_VARS, "alertmanager": ALERTING_VARS}.get(workload, longhaul_settings())
    for c in pod_specs()[workload]["containers"]:
        assert set(env_of(c)) <= known


TELEGRAF_VARS = set(re.findall(r"\$\{(LONGHAUL_\w+)", (ROOT / "ingest/telegraf/telegraf.conf").read_text()))
ALERTING_VARS = set(re.findall(r"\$\{(LONGHAUL_\w+)\}", (ROOT / "alerting/alertmanager.yml").read_text()))


def test_every_variable_of_telegraf_conf_and_alertmanager_yml_is_given():
    [telegraf] = pod_specs()["telegraf"]["containers"]
    from_files = set(re.findall(r"(LONGHAUL_\w+)=\"\$\(cat ", telegraf["command"][-1]))
    assert TELEGRAF_VARS == set(env_of(telegraf)) | from_files
    [am] = pod_specs()["alertmanager"]["containers"]
    assert ALERTING_VARS <= set(one("ConfigMap", "longhaul-alert-settings")["data"]) | set(env_of(am))


def test_grafanas_datasources_find_their_variables_and_files(created):
    grafana = helm_values("grafana")
    mounts = {m["mountPath"]: m for m in grafana["extraSecretMounts"]}
    text = "".join(p.read_text() for p in (ROOT / "dashboards/provisioning/datasources").glob("*.yaml"))
    variables = set(re.findall(r"\$([A-Z][A-Z0-9_]+)", text))
    assert variables and variables <= set(grafana["env"])
    files = re.findall(r"\$__file\{([^}]+)\}", text)
    assert files
    for path in files:
        mount = mounts.get(path) or next(m for p, m in mounts.items() if path.startswith(p + "/"))
        key = mount.get("subPath") or path.rpartition("/")[2]
        assert key in created[("secret", mount["secretName"])], path
