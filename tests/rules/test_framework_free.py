"""The rules package imports no web framework or task queue (STYLE.md: "framework-free package")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "baccarat"
BANNED = frozenset({"django", "rest_framework", "channels", "celery"})


def banned_imports(source: str, filename: str = "<source>") -> list[str]:
    """Every import of a banned package in ``source``, as ``line: module``."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        elif (
            isinstance(node, ast.Call)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            modules = [node.args[0].value]
        line = getattr(node, "lineno", 0)
        found += [f"{line}: {m}" for m in modules if m.split(".")[0] in BANNED]
    return found


def python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_package_has_python_files_to_check() -> None:
    names = {path.name for path in python_files()}
    assert {"cards.py", "drawing.py", "outcome.py", "wagers.py", "profiles.py"} <= names


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_of_the_rules_package_imports_a_framework(path: Path) -> None:
    assert banned_imports(path.read_text(encoding="utf-8"), str(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "import django.db.models as m",
        "from django.db import models",
        "from rest_framework import serializers",
        "import channels.layers",
        "from celery import shared_task",
        "def f():\n    import django\n",
        "import importlib\nimportlib.import_module('django.conf')",
        "__import__('celery')",
        "import os, channels",
    ],
)
def test_the_check_catches_each_way_of_importing_a_framework(source: str) -> None:
    assert banned_imports(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "import decimal",
        "from baccarat.cards import Card",
        "from . import cards",
        "import djangoish",
        "x = 'django'",
    ],
)
def test_the_check_lets_other_imports_through(source: str) -> None:
    assert banned_imports(source) == []


def test_importing_every_module_of_the_package_loads_no_framework() -> None:
    modules = [f"baccarat.{p.stem}" for p in python_files() if p.stem != "__init__"]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"loaded = sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(BANNED)!r}))\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PACKAGE.parent)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
