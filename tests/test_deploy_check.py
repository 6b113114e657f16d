"""`manage.py check --deploy` with production settings reports nothing (README "Settings")."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    """Run the deploy checks in a process of their own, with DEBUG off and only ``env`` besides."""
    production = {
        "PATH": os.environ.get("PATH", ""),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "tables.example.com",
        "CSRF_TRUSTED_ORIGINS": "https://tables.example.com",
        "DATABASE_URL": "postgres://baccarat_app@db.example.com:5432/baccarat",
        "REDIS_URL": "redis://redis.example.com:6379/0",
        **env,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_settings():
    done = check_deploy()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "System check identified no issues (0 silenced)."


def test_a_production_run_switched_to_plain_http_is_told_what_it_gives_up():
    done = check_deploy(
        SECURE_SSL_REDIRECT="false", SESSION_COOKIE_SECURE="false", SECURE_HSTS_SECONDS="0"
    )
    assert done.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012"):
        assert check in done.stderr
