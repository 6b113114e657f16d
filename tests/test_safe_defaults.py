"""Safe by default (issue 28): no production run with a public key; compose runs with DEBUG off
and will not start without a key; ``make run``'s embedded defaults still start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a process of their own, with only ``env`` set."""
    code = "import config.settings as s; print('DEBUG', s.DEBUG)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_off_without_a_secret_key_is_refused_with_the_reason() -> None:
    done = load_settings(DEBUG="false")
    assert done.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is false" in done.stderr


def test_the_embedded_run_starts_with_debug_on_and_no_key() -> None:
    done = load_settings()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "DEBUG True"


def test_compose_defaults_to_debug_off_and_requires_a_secret_key() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    env = compose["x-app-env"]
    assert env["DEBUG"] == "${DEBUG:-false}"
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")
    for name in ("web", "sockets", "worker", "beat", "migrate"):
        service_env = compose["services"][name].get("environment", env)
        assert service_env.get("SECRET_KEY", env["SECRET_KEY"]) == env["SECRET_KEY"], name
