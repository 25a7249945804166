"""Assignments 5, 8 and 9 judged outside the student's kernel (issue 25).

Their hidden checks are ``assignments/checks/<name>.py``; the test cells
keep the visible tests only. The released notebooks (every answer a stub)
score zero with the student's own error; the fixtures of
``tests/submissions/05_*.py`` and ``08_*.py`` (two honest mistakes, and the
same mistakes with the references bent) score what the table below says,
the bent one never more than the honest one. The solution notebooks' full
marks are ``test_teaching.py::test_solution_notebook_passes_its_own_tests``
and the fixtures of assignment 9 ``test_teaching.py::
test_svr_submission_scores``.
"""

import re
import shutil
from pathlib import Path

import nbformat
import pytest

from svmbook_classroom import grade_notebook, main
from svmbook_classroom.checks import checks_file, load_checks

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
SUBMISSIONS = Path(__file__).parent / "submissions"
NOTEBOOKS = ["05_mnist_3_vs_8", "08_scaling", "09_svr"]
HIDDEN_REGION = re.compile(r"### BEGIN HIDDEN TESTS")

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None,
    reason="bubblewrap is not installed (.ci/run installs it)",
)


def nbgrader(cell):
    return cell.metadata.get("nbgrader", {})


def autograded(nb):
    """grade_id -> points of the autograded test cells."""
    return {
        nbgrader(cell)["grade_id"]: nbgrader(cell)["points"]
        for cell in nb.cells
        if nbgrader(cell).get("grade") and not nbgrader(cell).get("solution")
    }


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """The student versions of all assignments, written by `release`."""
    out = tmp_path_factory.mktemp("release")
    assert main(["release", str(ASSIGNMENTS), str(out)]) == 0
    return out


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_question_has_a_check_and_nothing_is_hidden(name):
    nb = nbformat.read(ASSIGNMENTS / f"{name}.ipynb", as_version=4)
    checks = load_checks(checks_file(ASSIGNMENTS / f"{name}.ipynb"))
    assert set(checks) == set(autograded(nb))
    assert not any(HIDDEN_REGION.search(cell.source) for cell in nb.cells)
    for check in checks.values():
        assert check.hint and check.probes


#: Fixture -> (notebook, points per autograded question, a flag the grader
#: must raise or None).
MNIST_FULL = {
    "test_split": 3,
    "test_smo_mvp": 7,
    "test_decision_function": 2,
    "test_tune": 5,
    "test_roc": 4,
}
MNIST_TWO_BUGS = {**MNIST_FULL, "test_split": 0, "test_roc": 0}
SCALING_FULL = {
    "test_with_bias": 2,
    "test_coordinate_step": 3,
    "test_coordinate_descent": 5,
    "test_primal_objective": 3,
    "test_pg_gap": 2,
}
SCALING_TWO_BUGS = {
    **SCALING_FULL,
    "test_coordinate_descent": 0,
    "test_pg_gap": 0,
}
FIXTURES = {
    "05_mnist_3_vs_8_two_bugs": ("05_mnist_3_vs_8", MNIST_TWO_BUGS, None),
    "05_mnist_3_vs_8_bend_references": (
        "05_mnist_3_vs_8",
        # the smo_mvp cell rebinds off-limits names: zero for it as well
        {**MNIST_TWO_BUGS, "test_smo_mvp": 0},
        "calls off-limits",
    ),
    "08_scaling_two_bugs": ("08_scaling", SCALING_TWO_BUGS, None),
    "08_scaling_bend_references": (
        "08_scaling",
        SCALING_TWO_BUGS,
        "calls off-limits",
    ),
}
HONEST = {
    "05_mnist_3_vs_8_bend_references": "05_mnist_3_vs_8_two_bugs",
    "08_scaling_bend_references": "08_scaling_two_bugs",
}


def fixture_sources(name):
    """The answer cells of a fixture, by grade_id."""
    sources, current = {}, None
    for line in (SUBMISSIONS / f"{name}.py").read_text().splitlines(True):
        if line.startswith("# cell: "):
            current = line.removeprefix("# cell: ").strip()
            sources[current] = ""
        elif current is not None:
            sources[current] += line
    return {k: v.strip() for k, v in sources.items()}


def test_bent_fixtures_score_no_more_than_the_honest_ones():
    for bent, honest in HONEST.items():
        assert sum(FIXTURES[bent][1].values()) <= sum(
            FIXTURES[honest][1].values()
        )


@needs_bwrap
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixture_scores(name, released, tmp_path):
    notebook, expected, flag = FIXTURES[name]
    nb = nbformat.read(released / f"{notebook}.ipynb", as_version=4)
    sources = fixture_sources(name)
    for cell in nb.cells:
        grade_id = nbgrader(cell).get("grade_id")
        if grade_id in sources:
            cell.source = sources.pop(grade_id)
    assert not sources  # every section of the fixture names an answer cell
    path = tmp_path / "submitted" / name / f"{notebook}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    report = grade_notebook(
        path, ASSIGNMENTS / f"{notebook}.ipynb", timeout=300
    )
    assert report.error is None, report.to_text()
    assert {
        q.grade_id: q.points for q in report.questions if q.status != "manual"
    } == expected, report.to_text()
    if flag is None:
        assert report.flags == [], report.to_text()
    else:
        assert any(flag in f for f in report.flags), report.to_text()
    # a wrong answer reads the check's hint, not the judge's code
    checks = load_checks(checks_file(ASSIGNMENTS / f"{notebook}.ipynb"))
    for question in report.questions:
        if question.status == "failed":
            assert question.message.startswith(
                checks[question.grade_id].hint
            ), report.to_text()


@needs_bwrap
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_released_notebook_scores_zero_with_its_own_errors(name, released):
    report = grade_notebook(
        released / f"{name}.ipynb", ASSIGNMENTS, timeout=300
    )
    assert report.error is None, report.to_text()
    code = [q for q in report.questions if q.status != "manual"]
    assert {q.grade_id for q in code} == set(
        autograded(nbformat.read(ASSIGNMENTS / f"{name}.ipynb", as_version=4))
    )
    assert all(q.points == 0 for q in code), report.to_text()
    # the student's own error, as the probe met it
    assert all(q.message.endswith("NotImplementedError") for q in code), (
        report.to_text()
    )
    assert report.score == 0 and report.flags == [], report.to_text()
