"""The version in one place (pyproject.toml) and the citation made from it."""

import importlib.util
import re
import shutil
from pathlib import Path

import pytest
import yaml

BOOK_ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "book_version_script", BOOK_ROOT / "_ext" / "version.py"
)
version = importlib.util.module_from_spec(spec)
spec.loader.exec_module(version)


def test_generated_files_are_up_to_date():
    assert version.main(["--check"]) == 0, (
        "run: python _ext/version.py --write"
    )


def test_citation_file_carries_pyproject_version():
    pyproject = (BOOK_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.findall(r'^version = "([^"]+)"$', pyproject, re.M)
    assert declared == [version.book_version()]
    cff = yaml.safe_load(version.CITATION.read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == declared[0]
    assert cff["preferred-citation"]["version"] == declared[0]
    readme = version.README.read_text(encoding="utf-8")
    assert f"Version {declared[0]}." in readme


def test_check_reports_a_stale_citation(tmp_path, monkeypatch, capsys):
    for name in ("pyproject.toml", "CITATION.cff", "README.md"):
        shutil.copy(BOOK_ROOT / name, tmp_path / name)
    monkeypatch.setattr(version, "PYPROJECT", tmp_path / "pyproject.toml")
    monkeypatch.setattr(version, "CITATION", tmp_path / "CITATION.cff")
    monkeypatch.setattr(version, "README", tmp_path / "README.md")
    pyproject = version.PYPROJECT.read_text(encoding="utf-8")
    version.PYPROJECT.write_text(
        re.sub(
            r'^version = "[^"]+"$', 'version = "9.8.7"', pyproject, flags=re.M
        ),
        encoding="utf-8",
    )
    assert version.main(["--check"]) == 1
    assert "CITATION.cff is out of date" in capsys.readouterr().out
    assert version.main(["--write"]) == 0
    assert version.main(["--check"]) == 0
    assert 'version: "9.8.7"' in version.CITATION.read_text(encoding="utf-8")
    assert "Version 9.8.7." in version.README.read_text(encoding="utf-8")


def test_usage_error():
    with pytest.raises(SystemExit, match="usage"):
        version.main([])
