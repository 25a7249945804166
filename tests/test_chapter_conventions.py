"""The book's rules for computed numbers, solutions and timings, checked.

CONTRIBUTING.md, "Every number computed": numbers quoted in prose are
glued, solutions that state results run code (gated solutions), and timings
come from svmlib.timing, never from a hand-rolled clock, and are never
compared with saved outputs.
"""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("*/*.ipynb"))
HAND_CLOCKS = re.compile(
    r"time\.perf_counter|time\.time\(|time\.monotonic|%%?timeit"
)
TIMING_CALLS = re.compile(
    r"\b(time_call|time_once|compare|scaling_exponent)\("
)
GLUE_CALL = re.compile(r"glue\(\s*[\"']([A-Za-z0-9_]+)[\"']")
GLUE_ROLE = re.compile(r"\{glue(?::\w+)?\}`([A-Za-z0-9_]+)")


def _cells(path, kind):
    nb = nbformat.read(path, as_version=4)
    return [cell for cell in nb.cells if cell.cell_type == kind]


def _id(path):
    return str(path.relative_to(ROOT / "chapters"))


@pytest.mark.parametrize("path", CHAPTERS, ids=_id)
def test_timings_come_from_svmlib_timing(path):
    for cell in _cells(path, "code"):
        assert not HAND_CLOCKS.search(cell.source), (
            f"{_id(path)}: time code with svmlib.timing, not by hand:\n"
            f"{cell.source[:300]}"
        )


@pytest.mark.parametrize("path", CHAPTERS, ids=_id)
def test_no_timing_is_compared_with_saved_output(path):
    for cell in _cells(path, "code"):
        tags = cell.metadata.get("tags", [])
        if "nbval-check-output" in tags:
            assert not TIMING_CALLS.search(cell.source), (
                f"{_id(path)}: a timing cell is tagged nbval-check-output"
            )


@pytest.mark.parametrize("path", CHAPTERS, ids=_id)
def test_numbers_in_prose_are_glued_and_every_glue_is_defined(path):
    defined = {
        key
        for cell in _cells(path, "code")
        for key in GLUE_CALL.findall(cell.source)
    }
    used = {
        key
        for cell in _cells(path, "markdown")
        for key in GLUE_ROLE.findall(cell.source)
    }
    assert used, f"{_id(path)} quotes no glued number"
    assert used <= defined, f"{_id(path)}: glued nowhere: {used - defined}"


def test_glue_keys_are_unique_across_the_book():
    owner = {}
    for path in CHAPTERS:
        for cell in _cells(path, "code"):
            for key in set(GLUE_CALL.findall(cell.source)):
                assert owner.setdefault(key, path) == path, (
                    f"glue key {key!r} is set in {_id(owner[key])} and "
                    f"{_id(path)}"
                )


@pytest.mark.parametrize("path", CHAPTERS, ids=_id)
def test_gated_solutions_are_balanced(path):
    text = "\n".join(cell.source for cell in _cells(path, "markdown"))
    starts = len(re.findall(r"\{solution-start\}", text))
    ends = len(re.findall(r"\{solution-end\}", text))
    assert starts == ends, f"{_id(path)}: {starts} starts, {ends} ends"


@pytest.mark.parametrize("path", CHAPTERS, ids=_id)
def test_a_chapter_that_plots_saved_its_figures(path):
    code = _cells(path, "code")
    plots = any(re.search(r"\bplt\.|\.subplots\(", c.source) for c in code)
    images = sum(
        "image/png" in output.get("data", {})
        or "image/svg+xml" in output.get("data", {})
        for cell in code
        for output in cell.get("outputs", [])
    )
    if plots:
        assert images > 0, (
            f"{_id(path)} plots but saved no image: was it executed with "
            "MPLBACKEND=Agg? (see CONTRIBUTING, refreshing outputs)"
        )


@pytest.mark.parametrize("path", CHAPTERS, ids=_id)
def test_student_edition_keeps_every_glue_it_quotes(path, monkeypatch):
    """Glue set inside a gated solution is quoted only inside it.

    The student edition cuts gated solutions, code included
    (_ext/edition.py); a number quoted outside them must be computed
    outside them too.
    """
    monkeypatch.syspath_prepend(str(ROOT / "_ext"))
    import edition

    student = edition.strip_gated_solutions(
        nbformat.read(path, as_version=4), _id(path)
    )
    defined = {
        key
        for cell in student.cells
        if cell.cell_type == "code"
        for key in GLUE_CALL.findall(cell.source)
    }
    used = {
        key
        for cell in student.cells
        if cell.cell_type == "markdown"
        for key in GLUE_ROLE.findall(cell.source)
    }
    assert used <= defined, (
        f"{_id(path)}: the student edition quotes glue set only inside a "
        f"solution: {sorted(used - defined)}"
    )
