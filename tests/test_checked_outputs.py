"""The rule for checked notebook outputs, and the second configuration.

CONTRIBUTING.md, "Checked outputs": a cell tagged ``nbval-check-output``
shows only values that hold on every CPU, BLAS and thread count; counts
that follow floating-point ties (iterations and steps of a solver, which
stop at a tolerance) are glued in untagged cells. CI checks the tagged
cells a second time with other numerical kernels (``.ci/run``,
``SVMBOOK_SECOND_CONFIG=1``); these tests check what can be checked
without running a chapter: no tagged cell reads a solver's step count,
the second configuration's environment, that its notebooks are not
cached, and that the notebooks CI leaves out of the second run check
nothing but data sizes.
"""

import ast
import importlib.util
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
import headless  # noqa: E402

TAG = "nbval-check-output"
NOTEBOOKS = sorted((ROOT / "chapters").rglob("*.ipynb"))
# a solver's step or iteration count: result.n_iter, model.n_iter_
STEP_COUNTS = ("n_iter", "n_iter_")
SHOWN_BY = ("glue", "print")


def _shows_a_step_count(source):
    """Whether code glues or prints a solver's n_iter (or formats one).

    A cell may read ``n_iter`` for an ``assert`` or a loop; what it must
    not do, when tagged, is show it: in a ``glue`` or ``print`` call or an
    f-string. (A table with a column of steps is the reviewer's to see.)
    """
    for node in ast.walk(ast.parse(source)):
        shown = isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in SHOWN_BY
        )
        if shown and any(
            isinstance(inner, ast.Attribute) and inner.attr in STEP_COUNTS
            for inner in ast.walk(node)
        ):
            return True
    return False


def _checked_cells(path):
    nb = nbformat.read(path, as_version=4)
    return [
        (index, cell)
        for index, cell in enumerate(
            c for c in nb.cells if c.cell_type == "code"
        )
        if TAG in cell.metadata.get("tags", [])
    ]


def _id(path):
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_no_checked_cell_reads_a_step_count(path):
    offending = [
        index
        for index, cell in _checked_cells(path)
        if _shows_a_step_count(cell.source)
    ]
    assert not offending, (
        f"{_id(path)}: code cells {offending} are tagged {TAG} and put a "
        "solver's n_iter (a count that follows floating-point ties) into a "
        "glue, a print or an f-string: move that to an untagged cell "
        "(CONTRIBUTING.md, 'Checked outputs')"
    )


def test_step_count_check_sees_glue_print_and_f_strings():
    assert _shows_a_step_count("print(result.n_iter)")
    assert _shows_a_step_count('glue("k", int(model.n_iter_.sum()))')
    assert _shows_a_step_count('label = f"{fit.n_iter} steps"')
    assert not _shows_a_step_count("assert result.n_iter > 10")
    assert not _shows_a_step_count("smo(K, y, C, max_iter=n_iter)")


def _second_stage():
    """The body of .ci/run's ``second_configuration`` function."""
    text = (ROOT / ".ci" / "run").read_text()
    pattern = r"^second_configuration\(\) \{\n(.*?)^\}"
    match = re.search(pattern, text, re.M | re.S)
    assert match, ".ci/run defines the second-configuration stage"
    return text, match.group(1)


def _second_stage_ignored():
    return re.findall(r"--ignore=(\S+)", _second_stage()[1])


def test_ci_runs_the_second_configuration_on_the_chapters():
    text, body = _second_stage()
    assert re.search(r"SVMBOOK_SECOND_CONFIG=1 pytest chapters -n 0", body)
    # the function is run as a stage, and its failure fails the run
    assert re.search(r"stage \"[^\"]*\" \\\n\s+second_configuration", text)
    assert '[ "$second_status" -eq 0 ]' in text


# The notebooks that CI leaves out of the second run (for time) may check
# only what no floating-point result enters: the size of a data set, of its
# splits and of its classes, facts of the data files, a constant baseline.
# These are those cells' numbers among the notebook's code cells.
STABLE_BY_CONSTRUCTION = {
    # 7000 examples, 5000 features; the 50:30:20 split; the majority-class
    # baseline (accuracy 0.5 on a balanced test set)
    "chapters/case_studies/gisette.ipynb": [4, 5, 6, 7, 8, 9],
    # the split sizes that the source's printed accuracies imply (exact
    # fractions); the images per digit; the 60:20:20 split (each checked
    # cell followed by the hidden cell that glues the same sizes)
    "chapters/case_studies/mnist_3_vs_8.ipynb": [2, 3, 4, 5, 6, 7],
    # the 4s and 9s of the training file and the 1000:500:500 split
    "chapters/case_studies/mnist_4_vs_9.ipynb": [2, 3],
}


def test_notebooks_left_out_of_the_second_run_check_only_data_sizes():
    ignored = _second_stage_ignored()
    assert ignored, "the second run names what it leaves out"
    for name in ignored:
        path = ROOT / name
        assert path.is_file(), f"{name} does not exist"
        checked = [index for index, _ in _checked_cells(path)]
        assert checked == STABLE_BY_CONSTRUCTION.get(name, []), (
            f"{name} is left out of CI's run under the second numerical "
            f"configuration, so its checked cells {checked} are unproven "
            "there: check only data sizes in it (and list the cells in "
            "STABLE_BY_CONSTRUCTION), or run it in .ci/run's second stage"
        )


X86 = headless.platform.machine().lower() in ("x86_64", "amd64")


@pytest.mark.skipif(not X86, reason="OpenBLAS core types are x86-64's")
def test_first_configuration_is_haswell_and_keeps_a_preset_core():
    environ = {"MPLBACKEND": "Agg"}
    headless.kernel_environment(environ)
    assert environ == {"SVMBOOK_HEADLESS": "1", "OPENBLAS_CORETYPE": "Haswell"}
    environ = {"OPENBLAS_CORETYPE": "Prescott"}
    headless.kernel_environment(environ)
    assert environ["OPENBLAS_CORETYPE"] == "Prescott"


@pytest.mark.skipif(not X86, reason="OpenBLAS core types are x86-64's")
def test_second_configuration_sets_other_kernels_and_one_thread():
    environ = {"SVMBOOK_SECOND_CONFIG": "1"}
    headless.kernel_environment(environ)
    assert environ["OPENBLAS_CORETYPE"] == "Sandybridge"
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        assert environ[name] == "1"
    assert "X86_V3" in environ["NPY_DISABLE_CPU_FEATURES"].split()
    assert headless.second_configuration(environ)
    # a preset variable is kept
    environ = {"SVMBOOK_SECOND_CONFIG": "1", "OPENBLAS_CORETYPE": "Prescott"}
    headless.kernel_environment(environ)
    assert environ["OPENBLAS_CORETYPE"] == "Prescott"
    assert environ["OPENBLAS_NUM_THREADS"] == "1"


def test_second_configuration_is_off_unless_asked_for():
    assert not headless.second_configuration({})
    assert not headless.second_configuration({"SVMBOOK_SECOND_CONFIG": ""})


def test_runs_under_the_second_configuration_are_not_cached(monkeypatch):
    # the book's conftest.py (tests/conftest.py is another module)
    spec = importlib.util.spec_from_file_location(
        "book_conftest", ROOT / "conftest.py"
    )
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)

    calls = []
    monkeypatch.setattr(
        conftest, "_cache_executed", lambda *a: calls.append(a)
    )

    item = type("IPyNbCell", (), {"cell_num": 0, "parent": "notebook"})()
    for second, expected in (("1", 0), ("", 1)):
        monkeypatch.setenv("SVMBOOK_SECOND_CONFIG", second)
        run = conftest._NotebookRun()
        conftest._runs[item.parent] = run
        conftest.pytest_runtest_teardown(item, None)
        assert len(calls) == expected
