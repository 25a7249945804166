"""The code a reader sees is the idea (issue 29).

No code cell that a chapter's page shows may carry bookkeeping: ``glue(``
calls (the numbers the prose quotes), ``assert`` statements (checks),
``SVMBOOK_HEADLESS`` switches, ``# fmt: skip`` comments or matplotlib
``rcParams`` settings. Such lines belong in a cell right after the
computation, tagged ``remove-input`` (CONTRIBUTING.md, "Figures and the
code a reader sees"); nbval and the student edition still run it.

The rule is checked twice, on the same patterns:

* on the saved notebooks, with no build: every code cell of
  ``chapters/**/*.ipynb`` without a ``remove-input``, ``remove-cell`` or
  ``hide-input`` tag is visible (``hide-input`` cells are folded behind a
  toggle on the page, as ``visible_code_cells`` of test_built_book.py
  treats them);
* on the built HTML (skipped when the book is not built, a failure in CI
  with SVMBOOK_CHECK_BUILD=1): the code of every visible cell of every
  chapter page, read with test_built_book.py's ``visible_code_cells``.

Chapters not converted yet are listed in ``NOT_DONE`` with the reason;
their tests are expected failures (not strict, so that a chapter finished
by someone else does not break the run: remove it from the list then).
"""

import json

import pytest
from test_built_book import CHAPTERS, ROOT, article, built, visible_code_cells

#: what a visible code cell must not contain
BOOKKEEPING = (
    "glue(",
    "assert ",
    "SVMBOOK_HEADLESS",
    "# fmt: skip",
    "rcParams",
)
#: cells whose input the page does not show
HIDDEN_TAGS = {"remove-input", "remove-cell", "hide-input"}

#: chapters (path without suffix) whose visible code still has bookkeeping:
#: none left (issue 29 moved every glue call, assert, rcParams line,
#: SVMBOOK_HEADLESS switch and '# fmt: skip' out of sight)
NOT_DONE: dict[str, str] = {}


def bookkeeping_in(source):
    """The bookkeeping patterns that a cell's code contains, in order."""
    return [pattern for pattern in BOOKKEEPING if pattern in source]


def problems(sources):
    """One line per visible cell that carries bookkeeping."""
    found = []
    for number, source in enumerate(sources):
        patterns = bookkeeping_in(source)
        if patterns:
            first = next(
                line.strip()
                for line in source.splitlines()
                if any(p in line for p in patterns)
            )
            found.append(f"visible cell {number}: {patterns}: {first[:70]}")
    return found


def notebook_visible_sources(path):
    """The code of each code cell of a saved notebook that a page shows."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    sources = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        if HIDDEN_TAGS & set(cell.get("metadata", {}).get("tags", [])):
            continue
        source = cell["source"]
        sources.append(source if isinstance(source, str) else "".join(source))
    return sources


NOTEBOOKS = sorted(
    str(p.relative_to(ROOT))
    for p in (ROOT / "chapters").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)


def _chapter(relative):
    return relative.rsplit(".", 1)[0]


def _params(pages):
    return [
        pytest.param(
            page,
            marks=pytest.mark.xfail(
                reason=NOT_DONE[_chapter(page)], strict=False
            )
            if _chapter(page) in NOT_DONE
            else (),
        )
        for page in pages
    ]


def test_the_detector_on_samples():
    assert bookkeeping_in('glue("k", x, display=False)') == ["glue("]
    assert bookkeeping_in("myst_nb.glue(\n 'k', 1)") == ["glue("]
    assert bookkeeping_in("x = f(y)\nassert x > 0") == ["assert "]
    assert bookkeeping_in('plt.rcParams["figure.dpi"] = 90') == ["rcParams"]
    assert bookkeeping_in('if os.environ.get("SVMBOOK_HEADLESS"):') == [
        "SVMBOOK_HEADLESS"
    ]
    assert bookkeeping_in("f(a, b,\n  c)  # fmt: skip") == ["# fmt: skip"]
    assert bookkeeping_in("model = SVC().fit(X, y)\nmodel.score(X, y)") == []
    assert problems(["x = 1", "y = 2\nassert y == 2"]) == [
        "visible cell 1: ['assert ']: assert y == 2"
    ]


def test_saved_notebooks_hide_tagged_cells(tmp_path):
    cell = {"cell_type": "code", "metadata": {}, "outputs": []}
    notebook = {
        "cells": [
            {**cell, "source": ["x = f()\n", "assert x"]},
            {**cell, "source": "glue('k', 1)", "metadata": {"tags": []}},
            {
                **cell,
                "source": ["glue('k', 1)"],
                "metadata": {"tags": ["remove-input"]},
            },
            {
                **cell,
                "source": "rc = rcParams",
                "metadata": {"tags": ["hide-input"]},
            },
            {"cell_type": "markdown", "metadata": {}, "source": "glue(x)"},
        ]
    }
    path = tmp_path / "chapter.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    visible = ["x = f()\nassert x", "glue('k', 1)"]
    assert notebook_visible_sources(path) == visible


def test_every_exception_names_a_chapter():
    chapters = {_chapter(n) for n in NOTEBOOKS}
    assert NOTEBOOKS, "no chapter notebooks found"
    stale = sorted(set(NOT_DONE) - chapters)
    assert not stale, f"NOT_DONE names no chapter notebook: {stale}"


@pytest.mark.parametrize("notebook", _params(NOTEBOOKS))
def test_saved_notebook_shows_no_bookkeeping(notebook):
    found = problems(notebook_visible_sources(ROOT / notebook))
    assert not found, (
        f"{len(found)} visible cells carry bookkeeping (move those lines to "
        f"a remove-input cell after the computation): {found[:5]}"
    )


@pytest.mark.parametrize("relative", _params(CHAPTERS) or ["(not built)"])
def test_built_page_shows_no_bookkeeping(relative):
    if not CHAPTERS:
        built("index.html")  # skips, or fails in CI
    found = problems(visible_code_cells(article(relative)))
    assert not found, (
        f"{len(found)} visible cells carry bookkeeping (move those lines to "
        f"a remove-input cell after the computation): {found[:5]}"
    )
