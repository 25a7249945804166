"""Assignments 1 to 4: hidden checks judged outside the student's kernel.

Their checks are ``assignments/checks/0[1-4]_*.py``
(:mod:`svmbook_classroom.checks`): every autograded question has one, and
the notebooks keep their visible tests only. The released notebooks score
zero with the students' own errors; the fixtures
``tests/submissions/0[1-4]_*.py`` (two honest mistakes per assignment, and
the same mistakes with the references bent: rebound names, patched svmlib,
scikit-learn, SciPy and NumPy, liar objects) score what their honest code
earns, no more. That the solution notebooks score full marks without a
flag is ``test_solution_notebook_passes_its_own_tests`` in
``tests/test_teaching.py``.
"""

import json
import re
import shutil
from pathlib import Path

import nbformat
import numpy as np
import pytest

from svmbook_classroom import checks as checks_module
from svmbook_classroom import grade_notebook, release_notebook
from svmbook_classroom.checks import Probe, checks_file, load_checks

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
SUBMISSIONS = ROOT / "tests" / "submissions"
NOTEBOOKS = [
    "01_primal_sgd.ipynb",
    "02_dual_kkt.ipynb",
    "03_smo.ipynb",
    "04_kernels_sweep.ipynb",
]
HIDDEN_REGION = re.compile(r"### BEGIN HIDDEN TESTS", re.S)

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None,
    reason="bubblewrap is not installed (.ci/run installs it)",
)


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _is_test(cell):
    meta = cell.metadata.get("nbgrader", {})
    return meta.get("grade") and not meta.get("solution")


def _code_points(report):
    return {
        q.grade_id: q.points for q in report.questions if q.status != "manual"
    }


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_question_has_a_check_and_nothing_is_hidden(name, tmp_path):
    nb = nbformat.read(ASSIGNMENTS / name, as_version=4)
    tests = {_grade_id(cell) for cell in nb.cells if _is_test(cell)}
    checks = load_checks(checks_file(ASSIGNMENTS / name))
    assert set(checks) == tests and len(tests) >= 4
    assert not any(HIDDEN_REGION.search(cell.source) for cell in nb.cells)
    for check in checks.values():
        assert check.hint and check.probes
        # the probes' inputs are plain data that the grader can write
        for probe in check.probes:
            checks_module.write_inputs(probe, tmp_path / probe.name)


def test_a_dict_keyed_by_numbers_leaves_as_plain_data(tmp_path):
    """lambda_sweep returns {lambda: row}: its keys come back as numbers."""

    class _Key(float):  # a key that claims to equal anything
        def __eq__(self, other):
            return True

        __hash__ = float.__hash__

    def run(function):
        probe = Probe("p", "f", ([0.1, 1.0],))
        folder = tmp_path / f"probe{len(list(tmp_path.iterdir()))}"
        inputs = checks_module.write_inputs(probe, folder)
        exec(checks_module.runner_code(probe, folder, inputs), {"f": function})
        return checks_module.read_result(folder)

    got = run(lambda lams: {lam: {"n": np.int64(3)} for lam in lams})
    assert list(got) == [0.1, 1.0] and got[0.1]["n"] == 3
    got = run(lambda lams: {np.float64(2.5): 1, 7: [1.0]})
    assert set(got) == {2.5, 7} and got[7][0] == 1.0
    got = run(lambda lams: {_Key(0.5): "x"})
    assert type(next(iter(got))) is float and got == {0.5: "x"}
    # other keys are still refused, with the reason as the student's error
    for keys in ((1, 2), True, None):
        with pytest.raises(checks_module.ResultError, match="keys"):
            run(lambda lams, keys=keys: {keys: 1, "a": 2})


def test_malformed_pairs_are_refused(tmp_path):
    for pairs in ([[True, {"value": 1}]], [["a", {"value": 1}]], [[1.0]]):
        record = {"result": {"pairs": pairs}}
        (tmp_path / "result.json").write_text(json.dumps(record))
        with pytest.raises(checks_module.ResultError, match="malformed"):
            checks_module.read_result(tmp_path)


def _submission(tmp_path, notebook, name, sources):
    nb = release_notebook(nbformat.read(ASSIGNMENTS / notebook, as_version=4))
    sources = dict(sources)
    for cell in nb.cells:
        if _grade_id(cell) in sources:
            cell.source = sources.pop(_grade_id(cell))
    assert not sources  # every section of a fixture names an answer cell
    path = tmp_path / "submitted" / name / notebook
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    return path


def fixture_sources(name):
    """The answer cells of a fixture, by grade_id (``# cell: <id>``)."""
    sources, current = {}, None
    text = (SUBMISSIONS / f"{name}.py").read_text()
    for line in text.splitlines(keepends=True):
        if line.startswith("# cell: "):
            current = line.removeprefix("# cell: ").strip()
            sources[current] = ""
        elif current is not None:
            sources[current] += line
    return {k: v.strip() for k, v in sources.items()}


#: The function each question's probes call, for the student's own error.
FIRST_FUNCTION = {
    "01_primal_sgd.ipynb": {
        "test_hinge_objective": "hinge_objective",
        "test_hinge_subgradient": "hinge_subgradient",
        "test_sgd": "sgd",
        "test_lambda_sweep": "lambda_sweep",
    },
    "02_dual_kkt.ipynb": {
        "test_closest_point_on_circle": "closest_point_on_circle",
        "test_dual_objective": "dual_objective",
        "test_solve_dual": "solve_dual",
        "test_primal_from_dual": "primal_from_dual",
        "test_kkt_residuals": "kkt_residuals",
        "test_primal_objective": "primal_objective",
    },
    "03_smo.ipynb": {
        "test_bounds": "bounds",
        "test_pair_step": "pair_step",
        "test_new_threshold": "new_threshold",
        "test_simplified_smo": "simplified_smo",
        "test_violations": "violations_by_seed",
    },
    "04_kernels_sweep.ipynb": {
        "test_gaussian_gram": "gaussian_gram",
        "test_polynomial_gram": "polynomial_gram",
        "test_is_kernel_matrix": "is_kernel_matrix",
        "test_sigma_heuristic": "sigma_heuristic",
        "test_validation_grid": "validation_grid",
    },
}


@needs_bwrap
@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_released_notebook_scores_zero_with_its_own_errors(notebook, tmp_path):
    path = _submission(tmp_path, notebook, "nobody", {})
    report = grade_notebook(path, ASSIGNMENTS / notebook, timeout=300)
    assert report.error is None, report.to_text()
    assert report.score == 0 and report.max_score > 0
    assert report.flags == [], report.to_text()
    questions = [q for q in report.questions if q.status != "manual"]
    assert {q.grade_id for q in questions} == set(FIRST_FUNCTION[notebook])
    for question in questions:
        function = FIRST_FUNCTION[notebook][question.grade_id]
        assert question.message == f"{function}: NotImplementedError", (
            report.to_text()
        )


#: Fixture -> (notebook, points per autograded question, an off-limits
#: name the grader must flag or None). Each *_bend_references fixture
#: carries the code of the *_two_bugs fixture of its assignment with the
#: references bent: no question may score more than the honest code (what
#: the bending breaks in the answer's own code may score less).
ONE = {
    "test_hinge_objective": 0.0,
    "test_hinge_subgradient": 4.0,
    "test_sgd": 6.0,
    "test_lambda_sweep": 0.0,
}
TWO = {
    "test_closest_point_on_circle": 2.0,
    "test_dual_objective": 3.0,
    "test_solve_dual": 4.0,
    "test_primal_from_dual": 0.0,
    "test_kkt_residuals": 4.0,
    "test_primal_objective": 0.0,
}
THREE = {
    "test_bounds": 3.0,
    "test_pair_step": 0.0,
    "test_new_threshold": 0.0,
    "test_simplified_smo": 7.0,
    "test_violations": 2.0,
}
FOUR = {
    "test_gaussian_gram": 0.0,
    "test_polynomial_gram": 2.0,
    "test_is_kernel_matrix": 3.0,
    "test_sigma_heuristic": 0.0,
    "test_validation_grid": 6.0,
}
HONEST = {
    "01_primal_sgd_two_bugs": ("01_primal_sgd.ipynb", ONE),
    "02_dual_kkt_two_bugs": ("02_dual_kkt.ipynb", TWO),
    "03_smo_two_bugs": ("03_smo.ipynb", THREE),
    "04_kernels_sweep_two_bugs": ("04_kernels_sweep.ipynb", FOUR),
}
BENT = {
    "01_primal_sgd_bend_references": (
        "01_primal_sgd_two_bugs",
        "svmlib.solvers.primal.regularised_hinge_objective",
    ),
    "02_dual_kkt_bend_references": (
        "02_dual_kkt_two_bugs",
        "svmlib.duality.primal_objective",
    ),
    "03_smo_bend_references": (
        "03_smo_two_bugs",
        "svmlib.solvers.two_variable_step",
    ),
    "04_kernels_sweep_bend_references": (
        "04_kernels_sweep_two_bugs",
        "svmlib.kernels.rbf_kernel",
    ),
}


def _hints(notebook):
    checks = load_checks(checks_file(ASSIGNMENTS / notebook))
    return {check.grade_id: check.hint for check in checks.values()}


@needs_bwrap
@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_mistakes_cost_their_questions_only(name, tmp_path):
    notebook, expected = HONEST[name]
    path = _submission(tmp_path, notebook, name, fixture_sources(name))
    report = grade_notebook(path, ASSIGNMENTS / notebook, timeout=300)
    assert report.error is None, report.to_text()
    assert _code_points(report) == expected, report.to_text()
    assert report.flags == [], report.to_text()
    # a wrong answer reads the check's hint, a crash the student's error
    hints = _hints(notebook)
    for question in report.questions:
        if question.status != "failed":
            continue
        if name == "03_smo_two_bugs" and question.grade_id == "test_pair_step":
            assert question.message == (
                "pair_step: ZeroDivisionError: float division by zero"
            )
        else:
            assert question.message == hints[question.grade_id]


@needs_bwrap
@pytest.mark.parametrize("name", sorted(BENT))
def test_bending_the_references_gains_nothing(name, tmp_path):
    honest, off_limits = BENT[name]
    notebook, expected = HONEST[honest]
    path = _submission(tmp_path, notebook, name, fixture_sources(name))
    report = grade_notebook(path, ASSIGNMENTS / notebook, timeout=300)
    assert report.error is None, report.to_text()
    points = _code_points(report)
    assert set(points) == set(expected)
    assert all(points[q] <= expected[q] for q in expected), report.to_text()
    # the questions the honest code loses stay lost
    assert all(points[q] == 0 for q in expected if expected[q] == 0)
    assert report.score <= sum(expected.values())
    assert any(
        "calls off-limits" in flag and off_limits in flag
        for flag in report.flags
    ), report.to_text()
