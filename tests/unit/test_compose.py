"""docker-compose.yml cannot run here (no Docker engine), so check what can be checked:
it parses, every mounted path and build context exists in the repo, service versions match
the native stack's, and it mounts the same config files the native stack uses."""
import pathlib
import re

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def native_versions():
    text = (ROOT / "scripts/stack/defaults.env").read_text()
    return dict(re.findall(r'(\w+_VERSION):=([0-9.]+)', text))


def host_paths():
    for name, svc in SERVICES.items():
        for vol in svc.get("volumes", []):
            src = vol.split(":")[0]
            src = re.sub(r"\$\{[A-Z_]+:-(.*)\}", r"\1", src)  # ${VAR:-default} -> default
            if src.startswith("."):
                yield pytest.param(name, src, id=f"{name}:{src}")


@pytest.mark.parametrize("service,path", list(host_paths()))
def test_every_mounted_path_exists(service, path):
    assert (ROOT / path).exists(), f"{service} mounts {path}, which is not in the repo"


def test_every_build_context_has_its_dockerfile():
    for name, svc in SERVICES.items():
        build = svc.get("build")
        if build is None:
            continue
        context = build if isinstance(build, str) else build.get("context", ".")
        dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
        assert (ROOT / context / dockerfile).is_file(), f"{name}: {context}/{dockerfile} missing"


@pytest.mark.parametrize("service,key", [
    ("kafka", "LONGHAUL_KAFKA_VERSION"), ("jobmanager", "LONGHAUL_FLINK_VERSION"), ("taskmanager", "LONGHAUL_FLINK_VERSION"),
    ("influxdb", "LONGHAUL_INFLUXDB_VERSION"), ("telegraf", "LONGHAUL_TELEGRAF_VERSION"),
])
def test_image_versions_match_the_native_stack(service, key):
    tag = SERVICES[service]["image"].split(":")[1]
    assert tag.startswith(native_versions()[key]), f"{service} {tag} != native {native_versions()[key]}"


def test_images_are_pinned():
    for name, svc in SERVICES.items():
        if "image" in svc:
            assert ":" in svc["image"] and not svc["image"].endswith(":latest"), name


def test_compose_uses_the_native_config_files():
    telegraf_mount = [v for v in SERVICES["telegraf"]["volumes"] if "telegraf.conf" in v]
    assert telegraf_mount and telegraf_mount[0].startswith("./ingest/telegraf/telegraf.conf")
    assert "ingest/telegraf/telegraf.conf" in (ROOT / "scripts/stack/telegraf.sh").read_text()
    setup = SERVICES["setup"]["volumes"]
    assert any(v.startswith("./ingest/topics.yaml") for v in setup)
    assert any(v.startswith("./ingest/influxdb/retention.yaml") for v in setup)
