"""svmlib's layers hold (import-linter), and every module has a layer.

The contract is in pyproject.toml (``[tool.importlinter]``): validation
and kernels at the bottom, then the Gram access, the solvers, the
formulations, the estimators on top; a module imports only from the layers
below it. The classroom tools are a package of their own
(``classroom/``, ``svmbook_classroom``) that no module of svmlib imports.
"""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import tomllib

import svmlib

ROOT = Path(__file__).resolve().parents[1]


def _layers():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = config["tool"]["importlinter"]["contracts"]
    return contract["layers"]


def test_the_layers_contract_is_kept():
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(linter), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "svmlib layers KEPT" in run.stdout


def test_every_module_of_svmlib_is_in_a_layer():
    """A new module must be placed: none escapes the contract."""
    placed = {name.strip() for layer in _layers() for name in layer.split(":")}
    modules = {module.name for module in pkgutil.iter_modules(svmlib.__path__)}
    assert modules == placed, (
        f"not in a layer: {sorted(modules - placed)}; "
        f"no such module: {sorted(placed - modules)}"
    )


def _imported_modules(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_svmlib_never_imports_the_classroom_package():
    sources = sorted((ROOT / "svmlib").rglob("*.py"))
    assert len(sources) > 20  # the walk found svmlib's modules
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sources
        for name in _imported_modules(ast.parse(path.read_text()))
        if name.split(".")[0] == "svmbook_classroom"
    ]
    assert not offenders, offenders
    # the check can fail
    tree = ast.parse("from svmbook_classroom import grading")
    assert list(_imported_modules(tree)) == ["svmbook_classroom"]
