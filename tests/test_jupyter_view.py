"""jupyter/svmbook_jupyter.py: the chapters as Jupyter shows them.

Every chapter's view has no glue role, literalinclude or svm-playground
left, its numbers are the ones the book prints (myst-nb's formatting of
the saved glue outputs), the code it shows is svmlib's source, and saving
the view gives back the file byte for byte (after nbformat's writer, which
Jupyter's save uses).
"""

import copy
import inspect
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "jupyter"))
import svmbook_jupyter as view  # noqa: E402

CHAPTERS = sorted(ROOT.glob("chapters/*/*.ipynb"))
LEFT = re.compile(r"\{glue(:\w+)?\}|\{literalinclude\}|\{svm-playground\}")


def _markdown(notebook):
    return [
        "".join(c["source"])
        for c in notebook["cells"]
        if c["cell_type"] == "markdown"
    ]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_view_resolves_the_markup_and_saves_back(path):
    original = json.loads(path.read_text(encoding="utf-8"))
    notebook = view.to_view(copy.deepcopy(original), path)
    left = [m.group(0) for t in _markdown(notebook) for m in LEFT.finditer(t)]
    assert not left
    view.from_view(notebook)
    saved = nbformat.writes(nbformat.from_dict(notebook))
    assert saved == nbformat.writes(nbformat.from_dict(original))


def test_glued_numbers_are_the_books():
    from myst_nb.core.variables import format_plain_text

    path = ROOT / "chapters/kernels/tuning_c_and_sigma.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    records = view.glued(notebook)
    text = "$\\sigma_0 =$ {glue:text}`tuning_sigma0:.2f` and {glue}`x`"
    shown = view.view_markdown(text, path.parent, records)
    expected = format_plain_text(records["tuning_sigma0"]["text/plain"], ".2f")
    assert shown == f"$\\sigma_0 =$ {expected} and {{glue}}`x`"
    assert re.fullmatch(r"\d\.\d\d", expected)


def test_literalinclude_shows_svmlibs_source():
    from svmlib.duality import recover_b

    text = (
        "Before.\n\n```{literalinclude} ../../svmlib/duality.py\n"
        ":pyobject: recover_b\n```\n\nAfter."
    )
    folder = ROOT / "chapters" / "dual"
    shown = view.view_markdown(text, folder, {})
    source = inspect.getsource(recover_b).rstrip("\n")
    assert shown == (
        "Before.\n\nFrom `recover_b` in `svmlib/duality.py`:\n\n"
        f"````python\n{source}\n````\n\nAfter."
    )
    start = view.view_markdown(
        text.replace(
            ":pyobject: recover_b\n",
            ':pyobject: recover_b\n:start-at: "if _hard_margin(C):"\n',
        ),
        folder,
        {},
    )
    assert "````python\n    if _hard_margin(C):\n" in start
    assert "def recover_b" not in start


def test_saving_drops_widget_state_and_says_how_to_bring_widgets_back():
    notebook = {
        "metadata": {"widgets": {"state": {}}},
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "source": "interact(f)",
                "outputs": [
                    {
                        "output_type": "display_data",
                        "metadata": {},
                        "data": {
                            "text/plain": "interactive(...)",
                            view.WIDGET_MIME: {"model_id": "abc"},
                        },
                    }
                ],
            }
        ],
    }
    view.from_view(notebook)
    assert "widgets" not in notebook["metadata"]
    output = notebook["cells"][0]["outputs"][0]
    assert output["data"] == {"text/plain": view.WIDGET_LINE}
    assert "run this cell" in view.WIDGET_LINE


def test_a_students_edit_is_saved():
    path = ROOT / "chapters/kernels/tuning_c_and_sigma.ipynb"
    notebook = view.to_view(json.loads(path.read_text()), path)
    cell = next(
        c for c in notebook["cells"] if view.KEY in c.get("metadata", {})
    )
    cell["source"] = "my own note"
    view.from_view(notebook)
    assert cell["source"] == "my own note"
    assert view.KEY not in cell["metadata"]


@pytest.mark.parametrize(
    ("chapter", "function", "title"),
    [
        ("chapters/smo/platt_and_wss.ipynb", "explore_smo", "step "),
        ("chapters/beyond/regression.ipynb", "explore_svr", "C = 10, "),
    ],
)
def test_playground_has_a_working_cell_in_jupyter(
    chapter, function, title, monkeypatch
):
    """Right after the playground's cell, one added cell calls svmlib."""
    import matplotlib

    from svmlib import explore

    matplotlib.use("Agg")
    path = ROOT / chapter
    original = json.loads(path.read_text(encoding="utf-8"))
    notebook = view.to_view(copy.deepcopy(original), path)
    added = [
        i
        for i, c in enumerate(notebook["cells"])
        if c["metadata"].get(view.KEY, {}).get("added")
    ]
    assert len(added) == 1
    (index,) = added
    before, cell = notebook["cells"][index - 1], notebook["cells"][index]
    assert "{svm-playground}" in before["metadata"][view.KEY]["source"]
    assert "run the cell below" in before["source"]
    assert cell["cell_type"] == "code" and cell["outputs"] == []
    nbformat.validate(nbformat.from_dict(notebook))
    code = cell["source"]
    assert f"from svmlib.explore import {function}\n" in code
    assert max(len(line) for line in code.splitlines()) <= 79
    # it runs: headless, one still figure of the playground's problem
    shown = []
    monkeypatch.setattr(
        explore, "_show", lambda fig: shown.append(fig.axes[0].get_title())
    )
    monkeypatch.setenv("SVMBOOK_HEADLESS", "1")
    namespace = {}
    exec(compile(code, chapter, "exec"), namespace)
    assert len(shown) == 1 and shown[0].startswith(title), shown
    points = json.loads(view.POINT_SETS.read_text())
    if function == "explore_smo":
        assert [list(p) for p in namespace["X"]] == [
            p[:2] for p in points["datasets"]["blobs"]["points"]
        ]
        n = len(explore.smo_steps(namespace["X"], namespace["y"], C=1.0))
        assert shown[0].startswith(f"step {n} of {n}: ")
    else:
        sine = points["regression"]["datasets"]["sine"]["points"]
        assert namespace["x"] == [p[0] for p in sine]
        assert shown[0].startswith("C = 10, epsilon = 0.2, sigma = 0.7: ")
    # and it is not saved
    view.from_view(notebook)
    assert len(notebook["cells"]) == len(original["cells"])


def test_the_sweep_playground_keeps_its_note_and_adds_no_cell():
    path = ROOT / "chapters/kernels/tuning_c_and_sigma.ipynb"
    notebook = view.to_view(json.loads(path.read_text()), path)
    assert not any(
        c["metadata"].get(view.KEY, {}).get("added") for c in notebook["cells"]
    )
    assert any(
        "the two sliders" in "".join(c["source"])
        for c in notebook["cells"]
        if c["cell_type"] == "markdown"
    )
