"""A chapter downloaded as .ipynb runs on its own, outside the repository.

A reader who downloads a notebook from the book has only the file, with
svmlib and the requirements installed: no chapters/ folder beside it, and
the data found through svmlib's loaders. Two chapters are run from a fresh
temporary folder: one without data, one that loads MNIST.
"""

import os
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "chapter, needs_data",
    [
        ("chapters/smo/two_variable_step.ipynb", False),
        ("chapters/smo/simplified_smo.ipynb", True),
    ],
)
def test_downloaded_notebook_runs_alone(tmp_path, chapter, needs_data):
    if needs_data and not os.environ.get("SVMLIB_DATA_DIR"):
        pytest.skip("SVMLIB_DATA_DIR is not set")
    copy = tmp_path / Path(chapter).name
    shutil.copy(ROOT / chapter, copy)
    notebook = nbformat.read(copy, as_version=4)
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    errors = [
        o
        for cell in notebook.cells
        for o in cell.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
