"""What ``pip install .`` installs: the package ``forties`` alone, no benchmark, experiment or
test support (``bench/``, ``lab/`` and ``tests/`` stay in the repository), and no module of
it that needs them."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = {"bench", "lab", "tests"}


def installed_packages() -> list[str]:
    """The packages setuptools puts in the wheel, found as pyproject.toml tells it to."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    find = config["packages"]["find"]
    found: list[str] = []
    for where in find["where"]:
        found += find_packages(str(ROOT / where), include=find.get("include", ("*",)),
                               exclude=find.get("exclude", ()))
    return found


def test_the_wheel_holds_forties_and_nothing_of_the_lab() -> None:
    packages = installed_packages()
    assert "forties" in packages
    for name in packages:
        assert name.split(".")[0] == "forties", name
        assert not OUTSIDE & set(name.split(".")), name


def test_no_installed_module_imports_the_lab() -> None:
    for path in sorted((ROOT / "src" / "forties").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in OUTSIDE, (path, name)


def test_every_data_file_of_the_package_is_installed() -> None:
    """The files ``forties`` reads that are not Python (the counted tables of
    ``bots/infer``, the web client, the translations, the migrations' template) are
    named in pyproject.toml's package-data, so that the wheel carries them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = config["package-data"]["forties"]
    package = ROOT / "src" / "forties"
    data = [p for p in package.rglob("*") if p.is_file() and p.suffix != ".py"
            and "__pycache__" not in p.parts]  # (compiled code, numba's too, made here)
    assert any(p.name == "infer_counts.json" for p in data)
    installed = {p for g in globs for p in package.glob(g)}
    for path in data:
        assert path in installed, path.relative_to(package)
