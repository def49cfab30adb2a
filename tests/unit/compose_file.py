"""docker-compose.yml as the tests read it: its services, the host paths they mount (the repo's,
or the compose secrets service's ./secrets), their start order and environments, and where a
service finds a file it reads."""

import pathlib
import re

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def host_paths(secrets=False):
    """The host paths services mount: the repo's, or (secrets=True) those under ./secrets."""
    for name, svc in SERVICES.items():
        for vol in svc.get("volumes", []):
            src = vol.split(":")[0]
            src = re.sub(r"\$\{[A-Z_]+:-(.*)\}", r"\1", src)  # ${VAR:-default} -> default
            if src.startswith(".") and (src.startswith("./secrets") == secrets):
                yield pytest.param(name, src, id=f"{name}:{src}")


def after(service):
    """Every service that starts before service (depends_on, transitively)."""
    deps = SERVICES[service].get("depends_on", {})
    return set(deps).union(*(after(d) for d in deps)) if deps else set()


def environments():
    for name, svc in SERVICES.items():
        env = svc.get("environment", {})
        if isinstance(env, dict):
            yield name, env


def depends(service):
    """{dependency: its condition} (None for the short list form, which waits for nothing)."""
    deps = SERVICES[service].get("depends_on", {})
    return dict.fromkeys(deps) if isinstance(deps, list) else {d: c.get("condition") for d, c in deps.items()}


def mounts(service):
    """{container path: source} of a service's volumes."""
    return {v.split(":")[1]: v.split(":")[0] for v in SERVICES[service].get("volumes", [])}


def host_path(service, container_path):
    """The host path (under the repo or ./secrets) a service sees at container_path, via its binds."""
    for target, source in sorted(mounts(service).items(), key=lambda m: -len(m[0])):
        if source.startswith(".") and (container_path == target or container_path.startswith(target + "/")):
            return source + container_path[len(target) :]
    raise AssertionError(f"{service} mounts nothing at {container_path}")


def in_secrets(secrets, service, container_path):
    """The file a service reads at container_path, in the fixture's ./secrets."""
    path = host_path(service, container_path)
    assert path.startswith("./secrets"), f"{service}: {container_path} is {path}, not a secret"
    return secrets.parent / path
