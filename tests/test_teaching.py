"""The assignments and svmbook_classroom: markup, release, grading, bad input.

Each solution notebook is executed once (graded against itself: full
marks); one released notebook is graded in full (zero on every code
question); every released notebook is run up to its first error, which must
be the NotImplementedError of a stub. Submissions with a syntax error, an
endless loop, a loop that ignores interrupts and a crashing kernel are tiny
notebooks written here.
"""

import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from svmbook_classroom import (
    GradeReport,
    QuestionGrade,
    grade_notebook,
    grading,
    main,
    release,
    release_notebook,
)

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
NOTEBOOKS = sorted(ASSIGNMENTS.glob("*.ipynb"))
NAMES = [path.name for path in NOTEBOOKS]

SOLUTION_REGION = re.compile(
    r"### BEGIN SOLUTION\n(.*?)\n\s*### END SOLUTION", re.S
)
HIDDEN_REGION = re.compile(
    r"### BEGIN HIDDEN TESTS\n(.*?)\n### END HIDDEN TESTS", re.S
)


def nbgrader(cell):
    return cell.metadata.get("nbgrader", {})


def is_test(cell):
    return nbgrader(cell).get("grade") and not nbgrader(cell).get("solution")


def is_manual(cell):
    return nbgrader(cell).get("grade") and nbgrader(cell).get("solution")


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    """The student versions of all assignments, written by `release`."""
    out = tmp_path_factory.mktemp("release")
    assert main(["release", str(ASSIGNMENTS), str(out)]) == 0
    return out


# ---------------------------------------------------------------------------
# The solution notebooks: markup (static)
# ---------------------------------------------------------------------------


def test_nine_assignments():
    assert len(NOTEBOOKS) == 9
    for topic in (
        "primal", "dual", "smo", "kernels", "mnist", "em", "multiclass",
        "scaling", "svr",
    ):  # fmt: skip
        assert any(topic in name for name in NAMES), topic


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_solution_markup(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    head = nb.cells[0].source
    assert (
        head.startswith("# Assignment")
        and sum(
            c.source.startswith("# ")
            for c in nb.cells
            if c.cell_type == "markdown"
        )
        == 1
    )
    assert (
        "Learning objectives" in head
        and "Estimated time" in head
        and "Points:" in head
    )

    ids = [nbgrader(cell)["grade_id"] for cell in nb.cells if nbgrader(cell)]
    assert len(ids) == len(set(ids))
    for cell in nb.cells:
        meta = nbgrader(cell)
        if meta:
            assert meta["schema_version"] == 3 and {
                "grade",
                "solution",
                "locked",
                "grade_id",
            } <= set(meta)
        if meta.get("grade"):
            assert meta["points"] > 0
    tests = [cell for cell in nb.cells if is_test(cell)]
    solutions = [
        cell
        for cell in nb.cells
        if nbgrader(cell).get("solution") and cell.cell_type == "code"
    ]
    assert len(tests) >= 4 and len(solutions) >= 4
    assert all("assert" in cell.source for cell in tests)
    assert all(SOLUTION_REGION.search(cell.source) for cell in solutions)
    # hidden tests in the cells, or hidden checks judged outside the
    # kernel (assignments/checks/<name>.py)
    if not (ASSIGNMENTS / "checks" / f"{path.stem}.py").exists():
        assert (
            sum(bool(HIDDEN_REGION.search(cell.source)) for cell in tests)
            >= len(tests) - 1
        )
    assert any(is_manual(cell) for cell in nb.cells)

    # the points table of the header adds up to the points of the cells
    total = sum(
        nbgrader(cell)["points"]
        for cell in nb.cells
        if nbgrader(cell).get("grade")
    )
    assert f"**Points:** {total} " in head
    assert (
        "RANDOM_STATE"
        in nb.cells[[c.cell_type for c in nb.cells].index("code")].source
    )


# ---------------------------------------------------------------------------
# Release (static)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_release_removes_solutions_and_hidden_tests(path, released):
    source = nbformat.read(path, as_version=4)
    student = nbformat.read(released / path.name, as_version=4)
    text = "\n".join(cell.source for cell in student.cells)

    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    assert "HIDDEN TESTS" not in text
    # every line of a solution or hidden test that does not also occur
    # outside those regions is gone
    outside = "\n".join(
        SOLUTION_REGION.sub("", HIDDEN_REGION.sub("", cell.source))
        for cell in source.cells
    )
    for cell in source.cells:
        for region in SOLUTION_REGION.findall(
            cell.source
        ) + HIDDEN_REGION.findall(cell.source):
            for line in region.splitlines():
                line = line.strip()
                if (
                    len(line) > 12
                    and not line.startswith("#")
                    and line not in outside
                ):
                    assert line not in text, (
                        cell.metadata["nbgrader"]["grade_id"],
                        line,
                    )

    by_id = {
        nbgrader(cell)["grade_id"]: cell
        for cell in student.cells
        if nbgrader(cell)
    }
    for cell in source.cells:
        meta = nbgrader(cell)
        if not meta:
            continue
        copy = by_id[meta["grade_id"]]
        assert nbgrader(copy).get("points") == meta.get("points")
        if meta["solution"] and cell.cell_type == "code":
            assert (
                "# YOUR CODE HERE\n" in copy.source
                and "raise NotImplementedError()" in copy.source
            )
        elif meta["solution"]:
            assert copy.source == "YOUR ANSWER HERE"
        if is_test(cell):
            assert copy.source.strip("\n") == HIDDEN_REGION.sub(
                "", cell.source
            ).strip("\n")
    assert all(
        not cell.get("outputs")
        for cell in student.cells
        if cell.cell_type == "code"
    )
    # no execution times, and no promise of solutions elsewhere
    assert not any(
        {"execution", "ExecuteTime"} & set(cell.metadata)
        for cell in student.cells
    )
    assert "full edition" not in text.lower()
    assert len(student.cells) == len(source.cells)


def test_release_refuses_to_overwrite_the_solutions(tmp_path):
    with pytest.raises(ValueError, match="overwrite the solutions"):
        release(ASSIGNMENTS, ASSIGNMENTS)
    with pytest.raises(ValueError, match="no .ipynb"):
        release(tmp_path, tmp_path / "out")
    assert (
        main(["release", str(tmp_path / "missing"), str(tmp_path / "out")])
        == 1
    )


def test_release_rejects_broken_markup():
    nb = tiny_notebook()
    nb.cells[2].metadata = {}  # a solution region outside a solution cell
    with pytest.raises(RuntimeError, match="non-solution cell"):
        release_notebook(nb)
    nb = tiny_notebook()
    nb.cells[2].source = nb.cells[2].source.replace("### END SOLUTION", "")
    with pytest.raises(RuntimeError, match="no end solution"):
        release_notebook(nb)


# ---------------------------------------------------------------------------
# Executing the assignments
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_solution_notebook_passes_its_own_tests(path):
    report = grade_notebook(path, path, timeout=300)
    assert report.error is None, report.to_text()
    statuses = {q.grade_id: q.status for q in report.questions}
    assert all(
        status in ("passed", "manual") for status in statuses.values()
    ), report.to_text()
    assert report.score == report.max_score > 0
    assert report.manual_points > 0
    # the reference answers call no off-limits function: nothing to review
    assert report.flags == [], report.to_text()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=NAMES)
def test_student_notebook_runs_to_its_first_stub(path, released):
    student = nbformat.read(released / path.name, as_version=4)
    client = NotebookClient(
        student,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(released)}},
    )
    with pytest.raises(CellExecutionError) as error:
        client.execute()
    assert error.value.ename == "NotImplementedError"
    ran = [
        cell
        for cell in student.cells
        if cell.cell_type == "code" and cell.get("execution_count")
    ]
    assert ran, "no cell ran before the first stub"
    failing = [
        cell
        for cell in ran
        if any(out.output_type == "error" for out in cell.outputs)
    ]
    assert len(failing) == 1 and failing[0] is ran[-1]


def test_unfilled_student_notebook_scores_zero(released):
    name = "06_em_gmm.ipynb"
    report = grade_notebook(released / name, ASSIGNMENTS, timeout=300)
    assert report.error is None
    code_questions = [q for q in report.questions if q.status != "manual"]
    assert code_questions and all(q.points == 0 for q in code_questions), (
        report.to_text()
    )
    assert report.score == 0 and report.max_score > 0
    assert any("NotImplementedError" in q.message for q in code_questions)


# ---------------------------------------------------------------------------
# Grading bad submissions (tiny notebooks)
# ---------------------------------------------------------------------------


def _meta(grade_id, grade=False, solution=False, locked=False, points=None):
    meta = {
        "grade": grade,
        "solution": solution,
        "locked": locked,
        "grade_id": grade_id,
        "schema_version": 3,
    }
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def tiny_notebook():
    """Two code questions (2 and 3 points) and a written answer (1 point)."""
    nb = new_notebook(
        metadata={
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            },
            # the reference that the hidden test of root compares with
            "svmbook": {"off_limits": ["math.sqrt"]},
        }
    )
    nb.cells = [
        new_markdown_cell("# Tiny"),
        new_code_cell(
            "import math\nimport numpy as np",
            metadata=_meta("setup", locked=True),
        ),
        new_code_cell(
            "def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n"
            "    ### END SOLUTION",
            metadata=_meta("square", solution=True),
        ),
        new_code_cell(
            "assert square(3) == 9\n### BEGIN HIDDEN TESTS\n"
            "assert square(-2) == 4\n### END HIDDEN TESTS",
            metadata=_meta("test_square", grade=True, locked=True, points=2),
        ),
        new_code_cell(
            "def root(x):\n    ### BEGIN SOLUTION\n    return math.sqrt(x)\n"
            "    ### END SOLUTION",
            metadata=_meta("root", solution=True),
        ),
        new_code_cell(
            "assert root(4) == 2\n### BEGIN HIDDEN TESTS\n"
            "np.testing.assert_allclose(root(2.0), math.sqrt(2.0))\n"
            "### END HIDDEN TESTS",
            metadata=_meta("test_root", grade=True, locked=True, points=3),
        ),
        new_markdown_cell(
            "Because.",
            metadata=_meta("why", grade=True, solution=True, points=1),
        ),
    ]
    return nb


@pytest.fixture
def tiny(tmp_path):
    """(tiny solution notebook, function writing a submission).

    The function takes a name and new sources by grade_id, and writes the
    released notebook with those cells replaced.
    """
    source = tmp_path / "tiny.ipynb"
    nbformat.write(tiny_notebook(), source)

    def submission(name, **sources):
        nb = release_notebook(tiny_notebook())
        for cell in nb.cells:
            grade_id = nbgrader(cell).get("grade_id")
            if grade_id in sources:
                cell.source = sources[grade_id]
        path = tmp_path / f"{name}.ipynb"
        nbformat.write(nb, path)
        return path

    return source, submission


def points(report):
    return report.points_by_question()


def test_grading_restores_hidden_and_tampered_tests(tiny):
    source, submission = tiny
    # wrong for negative numbers: passes the visible test, fails the hidden one
    path = submission(
        "partial",
        square="def square(x):\n    return abs(x) * x",
        root="def root(x):\n    return x ** 0.5",
    )
    assert points(grade_notebook(path, source, timeout=20)) == {
        "test_square": 0,
        "test_root": 3,
        "why": None,
    }
    # the visible tests alone pass
    assert points(grade_notebook(path, timeout=20))["test_square"] == 2

    # a test cell emptied or deleted by the student is put back from the source
    nb = nbformat.read(path, as_version=4)
    nb.cells = [
        cell
        for cell in nb.cells
        if nbgrader(cell).get("grade_id") != "test_root"
    ]
    nb.cells[3].source = "pass"  # test_square
    nbformat.write(nb, path)
    report = grade_notebook(path, source, timeout=20)
    assert points(report) == {"test_square": 0, "test_root": 3, "why": None}
    assert any(
        "restored" in note and "test_root" in note for note in report.notes
    )


def test_syntax_error_scores_zero_for_that_question(tiny):
    source, submission = tiny
    path = submission(
        "syntax",
        square="def square(x)\n    return x * x",
        root="def root(x):\n    return x ** 0.5",
    )
    report = grade_notebook(path, source, timeout=20)
    assert points(report) == {"test_square": 0, "test_root": 3, "why": None}
    assert (
        report.score == 3
        and report.max_score == 5
        and report.manual_points == 1
    )
    assert any("SyntaxError" in note for note in report.notes)
    assert "Total (autograded): 3 / 5" in report.to_text()


def test_endless_loop_is_interrupted(tiny):
    source, submission = tiny
    loop = "def root(x):\n    while True:\n        pass"
    path = submission(
        "loop", square="def square(x):\n    return x * x", root=loop
    )
    report = grade_notebook(path, source, timeout=3)
    statuses = {q.grade_id: q.status for q in report.questions}
    assert statuses == {
        "test_square": "passed",
        "test_root": "timeout",
        "why": "manual",
    }
    assert report.score == 2
    assert any("ran past 3 s" in note for note in report.notes)


def test_loop_that_ignores_interrupts_does_not_hang_the_grader(tiny):
    source, submission = tiny
    stubborn = (
        "import time\nwhile True:\n    try:\n        time.sleep(0.05)\n"
        "    except BaseException:\n        pass"
    )
    path = submission("stubborn", square=stubborn)
    report = grade_notebook(path, source, timeout=3)
    assert points(report) == {"test_square": 0, "test_root": 0, "why": None}
    assert {q.status for q in report.questions} == {"not run", "manual"}
    assert any(
        "did not stop when interrupted" in note for note in report.notes
    )


def test_dead_kernel_and_unreadable_notebooks(tiny, tmp_path, capsys):
    source, submission = tiny
    path = submission("crash", square="import os\nos._exit(1)")
    report = grade_notebook(path, source, timeout=20)
    assert report.score == 0 and any(
        "kernel died" in note for note in report.notes
    )

    broken = tmp_path / "broken.ipynb"
    broken.write_text("{ this is not a notebook")
    report = grade_notebook(broken, source, timeout=20)
    assert "not a readable Jupyter notebook" in report.error
    assert points(report) == {"test_square": 0, "test_root": 0, "why": None}

    grades = tmp_path / "grades.csv"
    assert (
        main(
            [
                "grade",
                str(broken),
                "--source",
                str(source),
                "--csv",
                str(grades),
            ]
        )
        == 1
    )
    assert "ERROR: cannot grade" in capsys.readouterr().out
    with grades.open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["question"] for row in rows] == [
        "test_square",
        "test_root",
        "why",
        "TOTAL (autograded)",
    ]
    assert (
        float(rows[-1]["points"]) == 0 and float(rows[-1]["max_points"]) == 5
    )


def test_command_line_grade_and_errors(tiny, tmp_path, capsys):
    source, submission = tiny
    path = submission(
        "good",
        square="def square(x):\n    return x * x",
        root="def root(x):\n    return x ** 0.5",
    )
    (tmp_path / "solutions").mkdir()
    assert (
        main(
            [
                "grade",
                str(path),
                "--source",
                str(tmp_path / "solutions"),
                "--timeout",
                "20",
            ]
        )
        == 1
    )
    # --source is a folder, and the solution notebook of the same name is
    # missing there
    assert "Cannot read the solution notebook" in capsys.readouterr().err

    # a fraction of a second is fine (nbclient itself takes whole seconds)
    command = ["grade", str(path), "--source", str(source)]
    output = ["--feedback", str(tmp_path / "feedback")]
    assert main(command + ["--timeout", "20.5"] + output) == 0
    out = capsys.readouterr().out
    assert (
        "test_square" in out
        and "Total (autograded): 5 / 5; 1 more points to grade by hand" in out
    )
    feedback = nbformat.read(
        tmp_path / "feedback" / "good.ipynb", as_version=4
    )
    assert all(
        cell.execution_count
        for cell in feedback.cells
        if cell.cell_type == "code"
    )

    assert main(["grade", str(path), "--timeout", "0"]) == 2
    assert main(["grade", str(path), "--timeout", "inf"]) == 2
    for timeout in (-1, float("nan"), float("inf"), "20", True):
        with pytest.raises(ValueError, match="timeout"):
            grade_notebook(path, source, timeout=timeout)
    with pytest.raises(SystemExit):
        main(["publish"])


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    def quick_grade(notebook, source=None, **options):
        question = QuestionGrade("test_square", 2.0, 2.0, "passed")
        return GradeReport(str(notebook), questions=[question])

    monkeypatch.setattr(grading, "grade_notebook", quick_grade)
    notebooks = [f"submitted/{name}/03_smo.ipynb" for name in "abc"]
    # stderr is not a terminal (pytest, CI): reports only, no bar
    assert main(["grade", *notebooks]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("Total (autograded): 2 / 2") == 3
    assert captured.err == ""

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["grade", *notebooks]) == 0
    bar = terminal.getvalue()
    assert "grading" in bar and "3/3" in bar and "03_smo.ipynb" in bar
    # the reports still go to stdout, whole
    assert capsys.readouterr().out.count("Total (autograded): 2 / 2") == 3


# ---------------------------------------------------------------------------
# Hostile submissions (tests/submissions): score deserved, flag raised
# ---------------------------------------------------------------------------

SUBMISSIONS = ROOT / "tests" / "submissions"

#: fixture -> (points per code question, a flag the grader must raise)
HOSTILE = {
    "custom_exception_handler": (
        {"test_square": 0, "test_root": 0},
        "a custom exception handler was installed",
    ),
    "assert_blanking_transformer": (
        {"test_square": 0, "test_root": 0},
        "input_transformers_post changed",
    ),
    "patched_test_helpers": (
        {"test_square": 2, "test_root": 0},
        "numpy.testing.assert_allclose was replaced",
    ),
    "off_limits_wrapper": (
        {"test_square": 2, "test_root": 0},
        "calls off-limits math.sqrt",
    ),
    "dynamic_import": (
        {"test_square": 2, "test_root": 3},
        "imports or runs code by name (getattr, import_module, importlib): "
        "review it",
    ),
    "network": (
        {"test_square": 2, "test_root": 3},
        "tried to reach the network",
    ),
    "hostile_files": (
        {"test_square": 2, "test_root": 3},
        "tried to read outside its folder",
    ),
}

needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None,
    reason="bubblewrap is not installed (.ci/run installs it)",
)


def hostile_sources(name, **paths):
    """The answer cells of a fixture, by grade_id."""
    text = (SUBMISSIONS / f"{name}.py").read_text()
    sources, current = {}, None
    for line in text.splitlines(keepends=True):
        if line.startswith("# cell: "):
            current = line.removeprefix("# cell: ").strip()
            sources[current] = ""
        elif current is not None:
            sources[current] += line
    return {
        grade_id: (
            source.format(**paths) if "{" in source and paths else source
        ).strip()
        for grade_id, source in sources.items()
    }


@needs_bwrap
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_submission_gains_nothing_and_is_flagged(name, tiny, tmp_path):
    source, submission = tiny
    victim = submission(
        "victim",
        square="def square(x):\n    return x * x",
        root="def root(x):\n    return x ** 0.5",
    )
    victim_text = victim.read_text()
    path = submission(
        name,
        **hostile_sources(name, source=str(source), victim=str(victim)),
    )
    report = grade_notebook(path, source, timeout=20)
    expected, flag = HOSTILE[name]
    assert {q.grade_id: q.points for q in report.questions} == {
        **expected,
        "why": None,
    }, report.to_text()
    assert any(flag in f for f in report.flags), report.to_text()
    assert f"FLAG: {next(f for f in report.flags if flag in f)}" in (
        report.to_text()
    )
    # nothing outside the submission's folder was touched
    assert victim.read_text() == victim_text
    assert not (tmp_path.parents[1] / "escaped.txt").exists()
    assert not Path("/escaped.txt").exists()
    if name == "hostile_files":
        assert any("tried to write outside" in f for f in report.flags)
        assert any(str(victim) in f for f in report.flags)
        assert grade_notebook(victim, source, timeout=20).score == 5


@needs_bwrap
def test_honest_submission_is_not_flagged(tiny):
    source, submission = tiny
    # scikit-learn (joblib's semaphores in /dev/shm) and svmlib's compiled
    # dual coordinate descent (numba's cache) work in the sandbox quietly
    path = submission(
        "honest",
        square="import numpy as np\nimport sklearn.svm\nimport svmlib\n\n"
        "X, y = np.array([[0.0], [1.0]]), np.array([0, 1])\n"
        "print(svmlib.LinearSVC().fit(X, y).predict(X))\n\n"
        "def square(x):\n    return x * x",
        root="def root(x):\n    return x ** 0.5",
    )
    report = grade_notebook(path, source, timeout=60)
    assert report.score == 5 and report.flags == [], report.to_text()
    assert report.notes == [] and "FLAG" not in report.to_text()


#: Submissions to assignment 9 (epsilon-SVR): tests/submissions/09_svr_*.py
#: replace the answer cells of its student notebook by grade_id. Fixture ->
#: (points per autograded question, a flag the grader must raise or None).
SVR_NOTEBOOK = ASSIGNMENTS / "09_svr.ipynb"
SVR_FULL = {
    "test_primal": 3,
    "test_svr_dual": 4,
    "test_solve_dual": 6,
    "test_coef_and_intercept": 4,
    "test_tube_position": 3,
}
SVR_SUBMISSIONS = {
    "09_svr_correct": (SVR_FULL, None),
    "09_svr_sign_error_in_p": ({**SVR_FULL, "test_svr_dual": 0}, None),
    "09_svr_wrong_intercept": (
        {**SVR_FULL, "test_coef_and_intercept": 0},
        None,
    ),
    "09_svr_off_limits": (
        {**SVR_FULL, "test_coef_and_intercept": 0},
        "calls off-limits svmlib.svr",
    ),
}


@pytest.mark.parametrize("name", sorted(SVR_SUBMISSIONS))
def test_svr_submission_scores(name, released, tmp_path):
    nb = nbformat.read(released / SVR_NOTEBOOK.name, as_version=4)
    sources = hostile_sources(name)
    for cell in nb.cells:
        grade_id = nbgrader(cell).get("grade_id")
        if grade_id in sources:
            cell.source = sources.pop(grade_id)
    assert not sources  # every section of the fixture names an answer cell
    path = tmp_path / "submitted" / name / SVR_NOTEBOOK.name
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    report = grade_notebook(path, SVR_NOTEBOOK, timeout=120)
    expected, flag = SVR_SUBMISSIONS[name]
    assert report.error is None, report.to_text()
    assert {
        q.grade_id: q.points for q in report.questions if q.status != "manual"
    } == expected, report.to_text()
    assert report.max_score == sum(SVR_FULL.values())
    if flag is None:
        assert report.flags == [], report.to_text()
    else:
        assert any(flag in f for f in report.flags), report.to_text()
        # zeroed by the static check (status "off limits") or, judged
        # outside the kernel, by the stub that the off-limits SVR is in the
        # sandbox (the probe's own error: "off limits in this assignment")
        (question,) = [
            q
            for q in report.questions
            if q.status == "off limits" or "off limits" in (q.message or "")
        ]
        assert question.grade_id == "test_coef_and_intercept"


#: Submissions to the assignments whose hidden checks are judged outside
#: the student's kernel (assignments/checks/): tests/submissions/06_*.py and
#: 07_*.py replace the answer cells of the student notebook by grade_id.
#: Fixture -> (notebook, points per autograded question, a flag the grader
#: must raise or None). An attack scores no more than the honest code it
#: carries: 06_em_gmm_bend_references is 06_em_gmm_two_bugs (11 / 18) with
#: the references bent, 06_em_gmm_event_hook and 07_multiclass_liars
#: implement nothing.
EM_ZERO = dict.fromkeys(
    ["test_log_gaussian", "test_e_step", "test_m_step", "test_fit_gmm",
     "test_assign"], 0.0,
)  # fmt: skip
EM_TWO_BUGS = {
    **EM_ZERO,
    "test_e_step": 4,
    "test_fit_gmm": 5,
    "test_assign": 2,
}
CHECKED_SUBMISSIONS = {
    "06_em_gmm_two_bugs": ("06_em_gmm.ipynb", EM_TWO_BUGS, None),
    "06_em_gmm_bend_references": (
        "06_em_gmm.ipynb",
        # the honest score of the same bugs: the grader puts back the stubs
        # of the off-limits functions that the answers replaced (flagged)
        EM_TWO_BUGS,
        "calls off-limits scipy.stats.multivariate_normal",
    ),
    "06_em_gmm_event_hook": (
        "06_em_gmm.ipynb",
        EM_ZERO,
        "an IPython post_run_cell event callback was added",
    ),
    "07_multiclass_liars": (
        "07_multiclass.ipynb",
        dict.fromkeys(
            [
                "test_ovr_predict",
                "test_votes",
                "test_ovo_predict",
                "test_machine_counts",
            ],
            0.0,
        ),  # fmt: skip
        # what the probes refused or converted is flagged (issue 25)
        "ovr_predict returned an object of class _Liar (a class defined in "
        "the notebook, a subclass of ndarray)",
    ),
}


def test_checked_assignments_have_checks_for_every_question():
    from svmbook_classroom.checks import checks_file, load_checks

    for name in ("06_em_gmm.ipynb", "07_multiclass.ipynb"):
        nb = nbformat.read(ASSIGNMENTS / name, as_version=4)
        tests = {
            nbgrader(cell)["grade_id"] for cell in nb.cells if is_test(cell)
        }
        checks = load_checks(checks_file(ASSIGNMENTS / name))
        assert set(checks) == tests, name
        # the hidden checks are outside the notebook: nothing hidden in it
        assert not any(HIDDEN_REGION.search(c.source) for c in nb.cells)


@needs_bwrap
@pytest.mark.parametrize("name", sorted(CHECKED_SUBMISSIONS))
def test_checked_submission_scores(name, released, tmp_path):
    notebook, expected, flag = CHECKED_SUBMISSIONS[name]
    nb = nbformat.read(released / notebook, as_version=4)
    sources = hostile_sources(name)
    for cell in nb.cells:
        grade_id = nbgrader(cell).get("grade_id")
        if grade_id in sources:
            cell.source = sources.pop(grade_id)
    assert not sources  # every section of the fixture names an answer cell
    path = tmp_path / "submitted" / name / notebook
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    report = grade_notebook(path, ASSIGNMENTS / notebook, timeout=300)
    assert report.error is None, report.to_text()
    assert {
        q.grade_id: q.points for q in report.questions if q.status != "manual"
    } == expected, report.to_text()
    if name == "06_em_gmm_bend_references":
        assert report.score <= sum(EM_TWO_BUGS.values())
    if flag is None:
        assert report.flags == [], report.to_text()
    else:
        assert any(flag in f for f in report.flags), report.to_text()
    if name == "06_em_gmm_event_hook":  # the student's own error message
        (question,) = [
            q for q in report.questions if q.grade_id == "test_e_step"
        ]
        assert question.message == "e_step: NotImplementedError"


def test_off_limits_names_and_the_grader_itself():
    from svmbook_classroom.off_limits import dynamic_code, off_limits_uses

    given = ("import svmlib.solvers.sequential_minimal as smo", False)
    cells = [
        given,
        ("step = smo.two_variable_step", True),
        (
            "from svmlib.solvers.sequential_minimal "
            "import two_variable_step as s",
            True,
        ),
        ("from svmbook_classroom.grading import _score", True),
        ("import svmbook_classroom", True),
        ("def two_variable_step():\n    pass", True),  # the student's own
        ("x = smo.other", True),
        # a student's function of the same name as an imported one
        ("from svmlib.kernels import rbf_kernel", False),
        ("def rbf_kernel(X):\n    return X\n\nK = rbf_kernel(1)", True),
    ]
    forbidden = {
        "svmlib.solvers.sequential_minimal.two_variable_step",
        "svmbook_classroom",
        "svmlib.kernels.rbf_kernel",
    }
    assert off_limits_uses(cells, forbidden) == [
        set(),
        {"svmlib.solvers.sequential_minimal.two_variable_step"},
        {"svmlib.solvers.sequential_minimal.two_variable_step"},
        {"svmbook_classroom"},
        {"svmbook_classroom"},
        set(),
        set(),
        set(),
        set(),
    ]
    assert dynamic_code("import importlib\nimportlib.import_module('m')") == [
        "import_module",
        "importlib",
    ]
    assert dynamic_code("def f(:") == []  # unparsable: nothing claimed


@needs_bwrap
def test_class_grading_in_parallel_with_feedback_and_records(
    tiny, tmp_path, capsys
):
    source, submission = tiny
    answers = {
        "alice": ("def square(x):\n    return x * x", "root = math.sqrt"),
        "bob": (
            "def square(x):\n    return abs(x) * x",
            "def root(x):\n    return x ** 0.5",
        ),  # fmt: skip
        "carol": (
            "def square(x):\n    return x * x",
            "def root(x):\n    return x ** 0.5",
        ),  # fmt: skip
    }
    notebooks = []
    for student, (square, root) in answers.items():
        written = submission(student, square=square, root=root)
        folder = tmp_path / "submitted" / student
        folder.mkdir(parents=True)
        notebooks.append(str(written.rename(folder / "tiny.ipynb")))
    grades, summary = tmp_path / "grades.csv", tmp_path / "summary.csv"
    feedback = tmp_path / "feedback"
    command = [
        "grade", *notebooks, "--source", str(source), "--jobs", "2",
        "--csv", str(grades), "--feedback", str(feedback),
        "--summary", str(summary), "--timeout", "20",
    ]  # fmt: skip
    for _ in range(2):  # graded twice: the CSV is updated, not appended to
        assert main(command) == 0
    out = capsys.readouterr().out
    with grades.open() as handle:
        rows = list(csv.DictReader(handle))
    totals = {
        Path(row["notebook"]).parent.name: float(row["points"])
        for row in rows
        if row["question"] == "TOTAL (autograded)"
    }
    assert totals == {"alice": 2, "bob": 3, "carol": 5}
    assert len(rows) == 3 * 4  # three questions and a total, once each
    alice = [r for r in rows if "alice" in r["notebook"]]
    assert {r["status"] for r in alice} >= {"off limits"}
    assert any("calls off-limits math.sqrt" in r["flags"] for r in alice)
    # the class summary, printed and written
    assert "submissions flagged for review: 1" in out
    with summary.open() as handle:
        per_question = {row["question"]: row for row in csv.DictReader(handle)}
    assert float(per_question["test_square"]["mean_points"]) == pytest.approx(
        4 / 3
    )
    # one feedback notebook per student, named from the submission, with
    # the visible tests but not the hidden ones
    for student in answers:
        text = (feedback / student / "tiny.ipynb").read_text()
        assert "square(3) == 9" in text
        assert "square(-2)" not in text and "HIDDEN" not in text
        assert "assert_allclose" not in text
    bob = nbformat.read(feedback / "bob" / "tiny.ipynb", as_version=4)
    assert "test_square" in bob.cells[0].source  # the points table first


def test_student_edition_holds_no_solutions(tmp_path):
    from svmbook_classroom import student_edition

    out = tmp_path / "svmbook-student"
    archive = student_edition(ROOT, out)
    assert archive.suffix == ".zip" and archive.exists()
    released = sorted(p.name for p in (out / "assignments").glob("*.ipynb"))
    assert released == NAMES
    assert not (out / "svmlib" / "teaching").exists()
    assert not list(out.rglob("svmbook_classroom"))  # the grader stays out
    assert (out / "svmlib" / "solvers" / "sequential_minimal.py").exists()
    markup = ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text(errors="replace")
            assert not any(m in text for m in markup), path
    for solution_notebook in NOTEBOOKS:
        nb = nbformat.read(solution_notebook, as_version=4)
        student = (out / "assignments" / solution_notebook.name).read_text()
        regions, outside = set(), []
        for cell in nb.cells:
            for pattern in (SOLUTION_REGION, HIDDEN_REGION):
                for region in pattern.findall(cell.source):
                    regions |= {line.strip() for line in region.splitlines()}
            outside.append(
                HIDDEN_REGION.sub("", SOLUTION_REGION.sub("", cell.source))
            )
        shown = "\n".join(outside)
        # long lines that only the solutions and hidden tests have
        for line in regions:
            if len(line) >= 40 and line not in shown:
                assert line not in student, line
    # it refuses a folder inside the book (it would ship with the book)
    with pytest.raises(ValueError, match="inside"):
        student_edition(ROOT, ROOT / "student-edition")


# ---------------------------------------------------------------------------
# The classroom tools are a package of their own (classroom/)
# ---------------------------------------------------------------------------

TOOLS = ("nbgrader", "nbformat", "nbclient", "traitlets", "svmbook_classroom")


def run_without(tools, code):
    """Run Python code in a fresh interpreter that cannot load ``tools``."""
    block = "".join(f"sys.modules[{tool!r}] = None\n" for tool in tools)
    return subprocess.run(
        [sys.executable, "-c", f"import sys\n{block}{code}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_classroom_package_is_not_in_svmlib():
    import svmbook_classroom

    package = Path(svmbook_classroom.__file__).resolve().parent
    assert package == ROOT / "classroom" / "svmbook_classroom"
    assert not (ROOT / "svmlib" / "teaching").exists()
    result = subprocess.run(
        [sys.executable, "-m", "svmbook_classroom", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "usage: python -m svmbook_classroom" in result.stdout


def test_core_imports_without_the_classroom_tools():
    code = (
        "import importlib, pkgutil, svmlib\n"
        "for module in pkgutil.walk_packages(svmlib.__path__, 'svmlib.'):\n"
        "    importlib.import_module(module.name)\n"
        "    print(module.name)\n"
    )
    result = run_without(TOOLS, code)
    assert result.returncode == 0, result.stderr
    imported = result.stdout.split()
    assert {
        "svmlib.svc",
        "svmlib.datasets",
        "svmlib.solvers.sequential_minimal",
    } <= set(imported)


# ---------------------------------------------------------------------------
# The student edition of the book (_ext/edition.py)
# ---------------------------------------------------------------------------


def test_student_edition_extension(monkeypatch):
    from types import SimpleNamespace

    from sphinx.errors import ConfigError

    monkeypatch.syspath_prepend(str(ASSIGNMENTS.parent / "_ext"))
    import edition

    monkeypatch.delenv("SVMBOOK_EDITION", raising=False)
    assert edition.edition() == "full"
    monkeypatch.setenv("SVMBOOK_EDITION", "teacher")
    with pytest.raises(ConfigError, match="SVMBOOK_EDITION"):
        edition.edition()

    config = SimpleNamespace(
        hide_solutions=False, html_copy_source=True, html_theme_options={}
    )
    monkeypatch.setenv("SVMBOOK_EDITION", "full")
    edition.configure(None, config)
    assert not config.hide_solutions and config.html_copy_source
    monkeypatch.setenv("SVMBOOK_EDITION", " Student ")
    edition.configure(None, config)
    assert config.hide_solutions and not config.html_copy_source
    assert config.html_theme_options["use_download_button"] is False

    app = SimpleNamespace(
        config=config,
        env=SimpleNamespace(doc2path=lambda docname: f"{docname}.ipynb"),
    )
    source = [NOTEBOOKS[0].read_text()]
    edition.strip_assignment(app, "assignments/" + NOTEBOOKS[0].stem, source)
    student = nbformat.reads(source[0], as_version=4)
    assert student.metadata["mystnb"] == {"execution_mode": "off"}
    assert (
        "BEGIN SOLUTION" not in source[0] and "HIDDEN TESTS" not in source[0]
    )
    plain = nbformat.writes(new_notebook(cells=[new_code_cell("1 + 1")]))
    untouched = [plain]
    edition.strip_assignment(app, "chapters/some_chapter", untouched)
    assert untouched == [plain]


def test_student_edition_cuts_gated_solutions_with_their_code(monkeypatch):
    from types import SimpleNamespace

    from sphinx.errors import ExtensionError

    monkeypatch.syspath_prepend(str(ASSIGNMENTS.parent / "_ext"))
    import edition

    chapter = new_notebook(
        cells=[
            new_markdown_cell(
                "```{exercise}\n:label: ex\nCompute it.\n```\n\n"
                "````{solution-start} ex\n:label: ex-solution\n"
                "```{math}\nx^2\n```\nIt is:\n````"
            ),
            new_code_cell("answer = 42  # the solution's code"),
            new_markdown_cell("The answer is {glue:text}`answer`."),
            new_markdown_cell("```{solution-end}\n```\n\nAfter the solution."),
            new_code_cell("print('kept')"),
        ]
    )
    app = SimpleNamespace(
        config=SimpleNamespace(svmbook_edition="student"),
        env=SimpleNamespace(doc2path=lambda docname: f"{docname}.ipynb"),
    )
    source = [nbformat.writes(chapter)]
    edition.strip_assignment(app, "chapters/some_chapter", source)
    student = nbformat.reads(source[0], as_version=4)
    assert [cell.source for cell in student.cells] == [
        "```{exercise}\n:label: ex\nCompute it.\n```\n\n",
        "\nAfter the solution.",
        "print('kept')",
    ]

    unclosed = new_notebook(
        cells=[new_markdown_cell("```{solution-start} ex\n```")]
    )
    with pytest.raises(ExtensionError, match="no solution-end"):
        edition.strip_gated_solutions(unclosed, "chapters/unclosed")


# ---------------------------------------------------------------------------
# Issue 25: every grade kept, every submission contained, feedback from
# what the grader decided, computed names flagged
# ---------------------------------------------------------------------------

#: The lines of the tiny assignment's hidden tests.
TINY_HIDDEN = (
    "assert square(-2) == 4",
    "np.testing.assert_allclose(root(2.0), math.sqrt(2.0))",
)
GOOD = {
    "square": "def square(x):\n    return x * x",
    "root": "def root(x):\n    return x ** 0.5",
}


def _in_folder(tmp_path, student, written):
    """Move a submission to submitted/<student>/tiny.ipynb."""
    folder = tmp_path / "submitted" / student
    folder.mkdir(parents=True)
    return str(written.rename(folder / "tiny.ipynb"))


def _with_cell(path, source, nbgrader_meta):
    """Append a student cell carrying ``nbgrader_meta`` to a submission."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(
        new_code_cell(source, metadata={"nbgrader": nbgrader_meta})
    )
    nbformat.write(nb, path)
    return path


def _totals(grades):
    with grades.open() as handle:
        rows = list(csv.DictReader(handle))
    return rows, {
        Path(row["notebook"]).parent.name: (float(row["points"]), row["flags"])
        for row in rows
        if row["question"] == "TOTAL (autograded)"
    }


@needs_bwrap
def test_batch_keeps_every_grade(tiny, tmp_path, monkeypatch, capsys):
    source, submission = tiny
    notebooks = [
        _in_folder(tmp_path, "alice", submission("alice", **GOOD)),
        # a cell marked locked without a grade_id: KeyError in nbgrader's
        # DeduplicateIds, which stopped the whole batch
        _in_folder(
            tmp_path, "bob",
            _with_cell(submission("bob", **GOOD), "x = 1", {"locked": True}),
        ),
        _in_folder(tmp_path, "carol", submission("carol")),  # made not JSON
        _in_folder(tmp_path, "dave", submission("dave", **GOOD)),
        _in_folder(tmp_path, "erin", submission("erin", **GOOD)),
    ]  # fmt: skip
    Path(notebooks[2]).write_text('{"cells": [')

    # a crash of the grader itself on one submission (dave's)
    restore = grading.RestoreLockedCells.preprocess

    def crash_on_dave(self, nb, resources):
        if any("dave" in cell.source for cell in nb.cells):
            raise KeyError("grade_id")
        return restore(self, nb, resources)

    monkeypatch.setattr(
        grading.RestoreLockedCells, "preprocess", crash_on_dave
    )
    nb = nbformat.read(notebooks[3], as_version=4)
    nb.cells[2].source += "\n# dave"
    nbformat.write(nb, notebooks[3])

    grades, summary = tmp_path / "grades.csv", tmp_path / "summary.csv"
    feedback = tmp_path / "feedback"
    status = main([
        "grade", *notebooks, "--source", str(source), "--csv", str(grades),
        "--feedback", str(feedback), "--summary", str(summary),
        "--timeout", "20",
    ])  # fmt: skip
    assert status == 1  # some submissions could not be graded
    out = capsys.readouterr().out
    rows, totals = _totals(grades)
    assert {k: v[0] for k, v in totals.items()} == {
        "alice": 5, "bob": 5, "carol": 0, "dave": 0, "erin": 5,
    }  # fmt: skip
    assert len(rows) == 5 * 4  # every submission: three questions, a total
    assert "without a grade_id" in totals["bob"][1]
    assert "KeyError" in totals["dave"][1] and "ERROR" in totals["dave"][1]
    assert "not a readable Jupyter notebook" in totals["carol"][1]
    assert out.count("ERROR: cannot grade") == 2
    # feedback and the summary for the graded ones
    written = sorted(p.parent.name for p in feedback.rglob("*.ipynb"))
    assert written == ["alice", "bob", "erin"]
    with summary.open() as handle:
        per_question = {row["question"]: row for row in csv.DictReader(handle)}
    assert per_question["TOTAL (autograded)"]["graded"] == "5"


def test_csv_rows_are_written_as_each_submission_finishes(
    monkeypatch, tmp_path
):
    grades = tmp_path / "grades.csv"
    seen = []

    def quick_grade(notebook, source=None, **options):
        # the rows of the submissions graded before this one are there
        if grades.exists():
            with grades.open() as handle:
                seen.append(len(list(csv.DictReader(handle))))
        else:
            seen.append(0)
        if "c" in Path(notebook).parent.name:
            raise KeyboardInterrupt  # the instructor stops the run
        question = QuestionGrade("test_square", 2.0, 2.0, "passed")
        return GradeReport(str(notebook), questions=[question])

    monkeypatch.setattr(grading, "grade_notebook", quick_grade)
    notebooks = [f"submitted/{name}/03_smo.ipynb" for name in "abcd"]
    with pytest.raises(KeyboardInterrupt):
        main(["grade", *notebooks, "--csv", str(grades)])
    assert seen == [0, 2, 4]
    _, totals = _totals(grades)
    assert set(totals) == {"a", "b"}


def test_reports_escape_control_characters_and_cap_flags(tmp_path):
    from svmbook_classroom.records import update_csv

    report = GradeReport(
        "submitted/evil\n  FLAG: none\x1b[2J/tiny.ipynb",
        questions=[
            QuestionGrade("test_x", 0.0, 1.0, "failed", "E: \x1b[31mred\r")
        ],
        flags=[f"flag {k} " + "x" * 1000 for k in range(200)],
    )
    report.flags = grading._capped(report.flags, "flags")
    assert len(report.flags) == grading.MAX_FLAGS
    assert report.flags[-1] == "... and 181 more flags"
    assert all(len(f) <= grading.MAX_LENGTH for f in report.flags)
    text = report.to_text()
    assert "\x1b" not in text and "\r" not in text
    assert text.count("\n") == len(text.splitlines()) - 1
    assert text.splitlines()[0] == (
        "Grading submitted/evil\\n  FLAG: none\\x1b[2J/tiny.ipynb"
    )
    grades = tmp_path / "grades.csv"
    update_csv(grades, [report])
    raw = grades.read_bytes()
    assert b"\x1b" not in raw and raw.count(b"\n") == 3  # three rows
    with grades.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 and len(rows[-1]["flags"]) < 32767
    assert "\n" not in rows[-1]["notebook"]
    update_csv(grades, [report])  # graded again: replaced, not appended
    with grades.open(newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 2


#: Bombs (tests/submissions): fixture -> (points, the flag, options)
BOMBS = {
    "memory_bomb": (
        {"test_square": 2, "test_root": 3},
        "reached the memory limit (2048 MiB)",
    ),
    "fork_bomb": (
        {"test_square": 2, "test_root": 3},
        "reached the process limit (100)",
    ),
}


@needs_bwrap
def test_bombs_are_contained_and_the_batch_goes_on(tiny, tmp_path, capsys):
    source, submission = tiny
    notebooks = [
        _in_folder(tmp_path, name, submission(name, **hostile_sources(name)))
        for name in BOMBS
    ]
    notebooks.append(_in_folder(tmp_path, "zoe", submission("zoe", **GOOD)))
    grades = tmp_path / "grades.csv"
    status = main([
        "grade", *notebooks, "--source", str(source), "--csv", str(grades),
        "--timeout", "60", "--memory", "2048", "--processes", "100",
    ])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    rows, totals = _totals(grades)
    for name, (expected, flag) in BOMBS.items():
        got = {
            r["question"]: float(r["points"])
            for r in rows
            if f"/{name}/" in r["notebook"] and r["question"] in expected
        }
        assert got == expected, out
        assert flag in totals[name][1], out
    assert totals["zoe"] == (5.0, ""), out


@needs_bwrap
def test_notebook_budget_stops_the_remaining_cells(tiny):
    source, submission = tiny
    path = submission(
        "slow",
        square="import time\ntime.sleep(5)\n" + GOOD["square"],
        root="import time\ntime.sleep(5)\n" + GOOD["root"],
    )
    # 5 s for square, 3 s left for the rest: root is stopped
    limits = grading.Limits(notebook_time=8)
    report = grade_notebook(path, source, timeout=20, limits=limits)
    assert points(report) == {"test_square": 2, "test_root": 0, "why": None}
    assert any("budget of 8 s" in note for note in report.notes), (
        report.to_text()
    )
    with pytest.raises(ValueError, match="notebook_time"):
        grading.Limits(notebook_time=0)
    with pytest.raises(ValueError, match="limits"):
        grade_notebook(path, source, limits={"memory": 1})
    assert main(["grade", str(path), "--memory", "-1"]) == 2


def _hidden_lines_in(text):
    return [line for line in TINY_HIDDEN if line in text]


@needs_bwrap
def test_feedback_holds_no_hidden_test(tiny, tmp_path):
    source, submission = tiny
    path = _in_folder(
        tmp_path, "mallory",
        submission("mallory", **hostile_sources("leak_hidden_tests")),
    )  # fmt: skip
    feedback = tmp_path / "feedback"
    main([
        "grade", path, "--source", str(source), "--feedback", str(feedback),
        "--timeout", "20",
    ])  # fmt: skip
    text = (feedback / "tiny.ipynb").read_text()
    assert _hidden_lines_in(text) == [] and "HIDDEN" not in text
    nb = nbformat.read(feedback / "tiny.ipynb", as_version=4)
    # no output of the grading run: errors as the grader wrote them
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert outputs and all(o.output_type == "error" for o in outputs)
    assert any("withheld" in o.evalue for o in outputs)
    # the grader itself saw the leak in the executed notebook (the attack
    # did run), and scored the correct answers
    report = grade_notebook(path, source, timeout=20)
    executed = nbformat.writes(report.executed_notebook)
    assert _hidden_lines_in(executed) and report.score == 5


def test_feedback_shows_the_hint_of_a_question_that_lost_points():
    from svmbook_classroom.records import feedback_notebook

    nb = tiny_notebook()
    test = nb.cells[3]
    test.metadata["svmbook"] = {"hint": "square of a negative number"}
    test.outputs = [
        nbformat.v4.new_output(
            "error", ename="AssertionError", evalue="",
            traceback=["----> 3 assert square(-2) == 4"],
        ),
        nbformat.v4.new_output("stream", name="stdout", text=TINY_HIDDEN[0]),
    ]  # fmt: skip
    nb.cells[2].outputs = [
        nbformat.v4.new_output(
            "error", ename="ValueError", evalue=f"see {TINY_HIDDEN[0]}",
            traceback=[],
        )
    ]  # fmt: skip
    report = GradeReport(
        "a.ipynb", questions=[QuestionGrade("test_square", 0.0, 2.0, "failed")]
    )
    report.executed_notebook = nb
    feedback = feedback_notebook(report)
    text = nbformat.writes(feedback)
    assert _hidden_lines_in(text) == []
    outputs = feedback.cells[4].outputs
    assert outputs[0].evalue == "AssertionError in a hidden test"
    assert outputs[1].text == "Hint: square of a negative number"
    assert "withheld" in feedback.cells[3].outputs[0].evalue


def test_feedback_table_says_what_the_judge_found():
    """A question judged outside: its hint or the student's own error in
    the points table; a question with a hidden assert: nothing there."""
    from svmbook_classroom.records import WITHHELD, feedback_notebook

    nb = tiny_notebook()  # test_square's cell keeps its hidden region
    nb.cells[5].source = "assert root(4) == 2"  # root: judged outside
    report = GradeReport(
        "a.ipynb",
        questions=[
            QuestionGrade("test_square", 0.0, 2.0, "failed", "leaks a | b"),
            QuestionGrade(
                "test_root", 0.0, 3.0, "failed",
                "root: the root of 0 must be 0 | check x = 0",
            ),
        ],
    )  # fmt: skip
    report.executed_notebook = nb
    table = feedback_notebook(report).cells[0].source
    rows = {
        line.split("|")[1].strip(" `"): line
        for line in table.splitlines()
        if line.startswith("| `")
    }
    assert "root of 0 must be 0 \\| check x = 0 |" in rows["test_root"]
    assert rows["test_square"].endswith("| failed |  |")
    assert "leaks" not in table

    # a judge's message that quotes a hidden line is withheld
    line = "assert square(-2) == 4"  # test_square's hidden line
    report.questions[1].message = f"see {line}"
    table = feedback_notebook(report).cells[0].source
    assert WITHHELD in table and line not in table


@needs_bwrap
def test_computed_names_and_made_up_marks_are_flagged(tiny, tmp_path):
    source, submission = tiny
    path = submission("getattr", **hostile_sources("getattr_off_limits"))
    report = grade_notebook(path, source, timeout=20)
    assert points(report) == {"test_square": 2, "test_root": 3, "why": None}
    assert any(
        "imports or runs code by name (getattr)" in f for f in report.flags
    ), report.to_text()

    # a student cell passed off as an instructor's read-only cell, calling
    # the off-limits math.sqrt: before, it was not read as the student's
    made_up = {
        "grade": False, "solution": False, "locked": True,
        "grade_id": "given_helper", "schema_version": 3,
    }  # fmt: skip
    path = _with_cell(
        submission("made_up", square=GOOD["square"], root="root = None"),
        "root = math.sqrt",
        made_up,
    )
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(5, nb.cells.pop())  # before test_root
    nbformat.write(nb, path)
    report = grade_notebook(path, source, timeout=20)
    assert points(report) == {"test_square": 2, "test_root": 0, "why": None}
    assert any(
        "grade_id the assignment does not have (given_helper)" in f
        for f in report.flags
    ), report.to_text()
    assert any("calls off-limits math.sqrt" in f for f in report.flags)


def test_dynamic_code_names():
    from svmbook_classroom.off_limits import dynamic_code

    assert dynamic_code("f = getattr(svmlib, 'S' + 'VC')") == ["getattr"]
    assert dynamic_code("g = getattr\nh = g(svmlib, 'SVC')") == ["getattr"]
    assert dynamic_code("setattr(m, 'f', g)") == ["setattr"]
    assert dynamic_code("f = globals()['S' + 'VC']") == ["globals"]
    assert dynamic_code("import sys\nm = sys.modules['svmlib']") == [
        "sys.modules"
    ]
    assert dynamic_code("from sys import modules") == ["sys.modules"]
    assert dynamic_code("import importlib.util") == ["importlib"]
    assert dynamic_code("from importlib import reload") == ["importlib"]
    assert dynamic_code("m = __import__('svmlib')") == ["__import__"]
    # honest code: nothing
    assert dynamic_code("import sys\nprint(sys.version)\nx = obj.attr") == []


@pytest.mark.parametrize(
    "grader_threads, expected", [(None, "2"), ("1", "1"), ("64", "2")]
)
def test_kernel_threads_are_capped(monkeypatch, grader_threads, expected):
    """BLAS, OpenMP, numba and malloc arenas get at most two threads.

    One thread per core of a large machine would reserve more address
    space than the memory limit allows an honest kernel.
    """
    from svmbook_classroom.sandbox import Workspace

    if grader_threads is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", grader_threads)
    with Workspace() as workspace:
        env = workspace.environment()
    names = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMBA_NUM_THREADS", "MALLOC_ARENA_MAX")  # fmt: skip
    assert {name: env[name] for name in names} == dict.fromkeys(
        names, expected
    )


def test_probe_results_are_read_as_plain_data_only(tmp_path):
    import json
    import os

    import numpy as np

    from svmbook_classroom.checks import ResultError, read_result

    def write(folder, record, **arrays):
        folder.mkdir()
        (folder / "result.json").write_text(json.dumps(record))
        for name, array in arrays.items():
            np.save(folder / name, array, allow_pickle=True)
        return folder

    good = write(
        tmp_path / "good",
        {"result": {"list": [{"array": "out1.npy"}, {"value": 2.5}]}},
        **{"out1.npy": np.arange(3.0)},
    )
    array, number = read_result(good)
    assert type(array) is np.ndarray and array.tolist() == [0.0, 1.0, 2.0]
    assert number == 2.5
    # the student's own error message
    raised = write(tmp_path / "raised", {"error": "ValueError: bad shape"})
    with pytest.raises(ResultError, match="ValueError: bad shape"):
        read_result(raised)
    # missing, not JSON, an object array (pickle), a path outside, a link
    with pytest.raises(ResultError, match="no result file"):
        read_result(tmp_path / "nothing")
    broken = write(tmp_path / "broken", {})
    (broken / "result.json").write_text("{not json")
    with pytest.raises(ResultError, match="not JSON"):
        read_result(broken)
    pickled = write(
        tmp_path / "pickled",
        {"result": {"array": "out1.npy"}},
        **{"out1.npy": np.array([{"a": 1}], dtype=object)},
    )
    with pytest.raises(ResultError, match="unreadable array"):
        read_result(pickled)
    outside = write(tmp_path / "outside", {"result": {"array": "../x.npy"}})
    with pytest.raises(ResultError, match="malformed"):
        read_result(outside)
    linked = tmp_path / "linked"
    linked.mkdir()
    os.symlink(good / "result.json", linked / "result.json")
    with pytest.raises(ResultError, match="no result file"):
        read_result(linked)
