"""Classroom assignments: release student notebooks and grade submissions.

The book's assignments (``assignments/*.ipynb``) are *solution notebooks*
written in nbgrader's markup:

* a **solution cell** (``metadata.nbgrader.solution = true``) holds the
  instructor's answer between ``### BEGIN SOLUTION`` and ``### END SOLUTION``;
* an **autograded test cell** (``grade = true``, ``solution = false``,
  ``points = N``) holds ``assert`` statements; those between
  ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS`` are not shown to
  students;
* a **manually graded answer** (``grade = true``, ``solution = true``) is a
  markdown cell with the model answer;
* **read-only cells** (``locked = true``) are put back from the instructor's
  copy when grading.

Every marked cell has a unique ``grade_id``. Instructors who run nbgrader can
use the notebooks as they are. This module does the two jobs without
nbgrader's course database, with nbgrader's own preprocessors
(``ClearSolutions``, ``ClearHiddenTests``, ``ClearOutput``, ...) and
nbclient:

* :func:`release` writes the student versions: every solution region
  replaced by ``# YOUR CODE HERE`` / ``raise NotImplementedError()``, written
  answers by ``YOUR ANSWER HERE``, hidden tests removed, outputs cleared;
* :func:`grade_notebook` executes a filled-in notebook after restoring the
  test cells (hidden tests included) from the solution notebook, with a
  per-cell timeout, and scores every test cell as nbgrader does: full
  points if it runs without an error (and without output on stderr), zero
  otherwise.

Command line (``python -m svmlib.teaching --help``)::

    python -m svmlib.teaching release assignments/ release/
    python -m svmlib.teaching grade submitted/*/01_primal_sgd.ipynb \\
        --source assignments/

Grading several notebooks shows a progress bar on the terminal (on stderr;
none when stderr is not a terminal, as under CI or pytest).

The module needs the classroom tools (nbgrader, nbformat, nbclient,
traitlets), which svmlib's core does not install: they come with the
``teaching`` extra, ``pip install "svmlib[teaching]"`` (the book's
``requirements.txt`` installs it). Without them, ``import svmlib.teaching``
raises an ImportError that says so.

The instructors' page of the book (``instructors.md``) describes the whole
workflow, with and without nbgrader.
"""

import argparse
import copy
import csv
import math
import numbers
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

#: How to install what this module needs (the ``teaching`` extra).
INSTALL_HINT = 'pip install "svmlib[teaching]"'

try:
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from nbgrader.preprocessors import (
        CheckCellMetadata,
        ClearHiddenTests,
        ClearMarkScheme,
        ClearOutput,
        ClearSolutions,
        ComputeChecksums,
        DeduplicateIds,
        LockCells,
        NbGraderPreprocessor,
    )
    from nbgrader.utils import (
        determine_grade,
        is_grade,
        is_locked,
        is_solution,
    )
    from traitlets import Any
except ImportError as error:  # the optional classroom toolchain is missing
    raise ImportError(
        "svmlib.teaching needs the classroom tools nbgrader, nbformat, "
        f"nbclient and traitlets, which svmlib's core does not install "
        f"({error}). Install them with: {INSTALL_HINT}",
        name=error.name,
    ) from error

__all__ = [
    "DEFAULT_TIMEOUT",
    "GradeReport",
    "QuestionGrade",
    "RestoreLockedCells",
    "grade_notebook",
    "main",
    "release",
    "release_notebook",
]

#: Default per-cell time limit of the grader, in seconds.
DEFAULT_TIMEOUT = 120

#: The error nbclient records in a cell that ran past the time limit.
TIMEOUT_ERROR = {
    "ename": "CellTimeoutError",
    "evalue": "the cell ran past the time limit and was interrupted",
    "traceback": [
        "CellTimeoutError: the cell ran past the time limit and was "
        "interrupted"
    ],
}

#: nbgrader's release steps, in the order ``nbgrader generate_assignment``
#: applies them (without the course database).
RELEASE_STEPS = (
    CheckCellMetadata,
    LockCells,
    ClearSolutions,
    ClearOutput,
    ClearHiddenTests,
    ClearMarkScheme,
    ComputeChecksums,
    CheckCellMetadata,
)


# ---------------------------------------------------------------------------
# Release
# ---------------------------------------------------------------------------


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _is_autograded_test(cell):
    return is_grade(cell) and not is_solution(cell)


def release_notebook(nb):
    """The student version of a solution notebook.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        A solution notebook (nbformat 4) in nbgrader's markup; not modified.

    Returns
    -------
    nbformat.NotebookNode
        A copy in which every ``### BEGIN SOLUTION`` ... ``### END SOLUTION``
        region of a code cell is replaced by ``# YOUR CODE HERE`` and
        ``raise NotImplementedError()`` (indented like the region), every
        solution markdown cell by ``YOUR ANSWER HERE``, every
        ``### BEGIN HIDDEN TESTS`` ... ``### END HIDDEN TESTS`` region is
        removed, all outputs are cleared, and the grade and read-only cells
        are locked and carry nbgrader's checksums.

    Raises
    ------
    nbgrader.nbgraderformat.ValidationError
        If the nbgrader metadata is invalid (for example a duplicated
        ``grade_id`` or a grade cell without points).
    RuntimeError
        If a solution or hidden-test region is not closed, is nested, or lies
        in a cell that is not marked as a solution (respectively grade) cell.

    Notes
    -----
    The steps are nbgrader's own preprocessors (``LockCells``,
    ``ClearSolutions``, ``ClearOutput``, ``ClearHiddenTests``,
    ``ClearMarkScheme``, ``ComputeChecksums``, ``CheckCellMetadata``), in the
    order of ``nbgrader generate_assignment``.

    Examples
    --------
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> answer = new_code_cell(
    ...     "\\n".join(
    ...         [
    ...             "def square(x):",
    ...             "    ### BEGIN SOLUTION",
    ...             "    return x * x",
    ...             "    ### END SOLUTION",
    ...         ]
    ...     ),
    ...     metadata={
    ...         "nbgrader": {
    ...             "grade": False,
    ...             "solution": True,
    ...             "locked": False,
    ...             "grade_id": "square",
    ...             "schema_version": 3,
    ...         }
    ...     },
    ... )
    >>> student = release_notebook(new_notebook(cells=[answer]))
    >>> print(student.cells[0].source)
    def square(x):
        # YOUR CODE HERE
        raise NotImplementedError()
    """
    nb = copy.deepcopy(nb)
    resources = {}
    for step in RELEASE_STEPS:
        nb, resources = step().preprocess(nb, resources)
    return nb


def release(source, out_dir):
    """Write the student version of every solution notebook in ``source``.

    Parameters
    ----------
    source : str or path-like
        A solution notebook, or a folder whose ``*.ipynb`` files are solution
        notebooks (sub-folders are not searched; other files are not copied).
    out_dir : str or path-like
        Folder for the student notebooks (created if missing); each keeps its
        file name. Existing files of the same name are overwritten.

    Returns
    -------
    list of pathlib.Path
        The notebooks written.

    Raises
    ------
    ValueError
        If ``source`` holds no notebook, or ``out_dir`` is the folder of the
        solution notebooks (that would overwrite the solutions).
    FileNotFoundError
        If ``source`` does not exist.
    """
    source = Path(source)
    if not source.exists():
        raise FileNotFoundError(f"No such file or folder: {source}")
    notebooks = sorted(source.glob("*.ipynb")) if source.is_dir() else [source]
    if not notebooks:
        raise ValueError(f"{source} holds no .ipynb notebook to release.")
    out_dir = Path(out_dir)
    if out_dir.resolve() == notebooks[0].parent.resolve():
        raise ValueError(
            f"The output folder {out_dir} is the folder of the solution "
            "notebooks; releasing there would overwrite the solutions. "
            "Choose another folder."
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        student = release_notebook(nbformat.read(path, as_version=4))
        target = out_dir / path.name
        nbformat.write(student, target)
        written.append(target)
    return written


# ---------------------------------------------------------------------------
# Grading
# ---------------------------------------------------------------------------


class RestoreLockedCells(NbGraderPreprocessor):
    """Put back the instructor's version of every locked cell, by grade_id.

    Locked cells are the autograded test cells (with their hidden tests) and
    the read-only cells. A locked cell that the student deleted is inserted
    again after the nearest preceding marked cell. Grade metadata (points)
    always comes from the instructor's notebook; grade cells that the
    instructor's notebook does not know lose their grade mark.

    This plays the part of nbgrader's ``OverwriteCells``, which reads the
    instructor's cells from the course database instead.

    Attributes
    ----------
    source : nbformat.NotebookNode
        The instructor's solution notebook.
    """

    source = Any(help="The instructor's solution notebook (nbformat 4).")

    def preprocess(self, nb, resources):
        source_cells = [
            cell for cell in self.source.cells if _grade_id(cell) is not None
        ]
        known = {_grade_id(cell): cell for cell in source_cells}
        missing = []
        anchor = -1  # position in nb.cells after which a missing cell goes
        for original in source_cells:
            grade_id = _grade_id(original)
            position = next(
                (
                    k
                    for k, cell in enumerate(nb.cells)
                    if _grade_id(cell) == grade_id
                ),
                None,
            )
            if is_locked(original):
                restored = copy.deepcopy(original)
                if restored.cell_type == "code":
                    restored.outputs, restored.execution_count = [], None
                if position is None:
                    position = anchor + 1
                    nb.cells.insert(position, restored)
                    missing.append(grade_id)
                else:
                    nb.cells[position] = restored
            elif position is not None:
                nb.cells[position].metadata["nbgrader"] = copy.deepcopy(
                    original.metadata["nbgrader"]
                )
            if position is not None:
                anchor = position
        for cell in nb.cells:
            if is_grade(cell) and _grade_id(cell) not in known:
                cell.metadata["nbgrader"]["grade"] = False
        resources["restored_missing"] = missing
        return nb, resources


@dataclass
class QuestionGrade:
    """The score of one graded cell.

    Attributes
    ----------
    grade_id : str
    points : float or None
        Points earned; None for a manually graded answer.
    max_points : float
    status : str
        ``"passed"``, ``"partial"``, ``"failed"``, ``"timeout"``,
        ``"not run"`` (execution stopped before the cell) or ``"manual"``.
    message : str
        The error of a failed cell (``"AssertionError: ..."``), or a note.
    """

    grade_id: str
    points: object
    max_points: float
    status: str
    message: str = ""


@dataclass
class GradeReport:
    """The result of grading one notebook.

    Attributes
    ----------
    notebook : str
        Path of the graded notebook.
    questions : list of QuestionGrade
        One entry per grade cell, in notebook order.
    notes : list of str
        What the grader noticed: restored cells, the first errors, timeouts.
    error : str or None
        Why the notebook could not be graded at all (unreadable file, kernel
        that would not start); every question then scores zero.
    executed_notebook : nbformat.NotebookNode or None
        The notebook as run, with its outputs (feedback for the student).

    Examples
    --------
    >>> report = GradeReport(
    ...     "alice/03_smo.ipynb",
    ...     questions=[
    ...         QuestionGrade("test_bounds", 3.0, 3.0, "passed"),
    ...         QuestionGrade("test_smo", 0.0, 7.0, "failed", "KeyError"),
    ...         QuestionGrade("answer", None, 2.0, "manual"),
    ...     ],
    ... )
    >>> report.score, report.max_score, report.manual_points
    (3.0, 10.0, 2.0)
    >>> print(report.to_text())
    Grading alice/03_smo.ipynb
      question          points  status
      test_bounds        3 / 3  passed
      test_smo           0 / 7  failed (KeyError)
      answer             - / 2  manual
      Total (autograded): 3 / 10; 2 more points to grade by hand
    """

    notebook: str
    questions: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    error: object = None
    executed_notebook: object = field(default=None, repr=False)

    @property
    def score(self):
        """Points earned on the autograded questions."""
        return sum(q.points for q in self.questions if q.points is not None)

    @property
    def max_score(self):
        """Points available on the autograded questions."""
        return sum(
            q.max_points for q in self.questions if q.status != "manual"
        )

    @property
    def manual_points(self):
        """Points left to the instructor (manually graded answers)."""
        return sum(
            q.max_points for q in self.questions if q.status == "manual"
        )

    def points_by_question(self):
        """Dict grade_id -> points earned (None for manual answers)."""
        return {q.grade_id: q.points for q in self.questions}

    def to_text(self):
        """A plain-text table of the scores, for the terminal."""
        lines = [f"Grading {self.notebook}"]
        if self.error:
            lines.append(f"  ERROR: {self.error}")
        lines += [f"  note: {note}" for note in self.notes]
        if self.questions:
            width = max(len(q.grade_id) for q in self.questions)
            lines.append(f"  {'question':<{width}}  {'points':>11}  status")
            for q in self.questions:
                earned = "-" if q.points is None else f"{q.points:g}"
                score = f"{earned} / {q.max_points:g}"
                detail = f" ({q.message})" if q.message else ""
                lines.append(
                    f"  {q.grade_id:<{width}}  {score:>11}  {q.status}{detail}"
                )
        total = f"  Total (autograded): {self.score:g} / {self.max_score:g}"
        if self.manual_points:
            total += f"; {self.manual_points:g} more points to grade by hand"
        lines.append(total)
        return "\n".join(lines)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: the line IPython marks in a traceback: "----> 4 assert ..."
_MARKED_LINE = re.compile(r"^-+> *(\d+) (.*)$", re.M)


def _failing_line(traceback):
    """``"line 4: assert ..."``: the line IPython's traceback marks last.

    None if the traceback marks no line.
    """
    marked = _MARKED_LINE.findall(_ANSI.sub("", "\n".join(traceback)))
    return f"line {marked[-1][0]}: {marked[-1][1].strip()}" if marked else None


def _first_error(cell):
    """``"Name: value"`` of the first error output of a cell, or None.

    An error without a message (a bare ``assert``) is described by the line
    that raised it instead.
    """
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            value = str(output.get("evalue", "")).strip().splitlines()
            where = (
                None if value else _failing_line(output.get("traceback", []))
            )
            text = (
                f"{output.ename}: {value[0] if value else where or ''}".rstrip(
                    ": "
                )
            )
            return text if len(text) <= 120 else text[:117] + "..."
    for output in cell.get("outputs", []):
        if output.output_type == "stream" and output.name == "stderr":
            line = output.text.strip().splitlines()
            return "output on stderr: " + (line[-1][:100] if line else "")
    return None


class _Run:
    """Execute a notebook cell by cell; remember what ran and what failed."""

    def __init__(self, nb, timeout, cwd):
        self.nb = nb
        self.executed = set()
        self.timed_out = set()
        self.notes = []
        self.client = NotebookClient(
            nb,
            # nbclient counts whole seconds
            timeout=math.ceil(timeout),
            interrupt_on_timeout=True,
            error_on_timeout=TIMEOUT_ERROR,
            allow_errors=True,
            raise_on_iopub_timeout=True,
            kernel_name="python3",
            shutdown_kernel="immediate",
            extra_arguments=["--HistoryManager.hist_file=:memory:"],
            resources={"metadata": {"path": str(cwd)}},
            on_cell_executed=self._on_cell_executed,
        )
        self.timeout = timeout

    def _on_cell_executed(self, cell, cell_index, execute_reply):
        """Record a timeout.

        nbclient's reply to an interrupted cell is not among its outputs.
        """
        content = execute_reply["content"]
        if (
            content.get("status") == "error"
            and content.get("ename") == TIMEOUT_ERROR["ename"]
        ):
            self.timed_out.add(cell_index)
            cell.outputs.append(
                nbformat.v4.new_output("error", **TIMEOUT_ERROR)
            )
            self.notes.append(
                f"cell {cell_index} ran past {self.timeout:g} s and was "
                "interrupted"
            )

    def run(self):
        with self.client.setup_kernel():
            for index, cell in enumerate(self.nb.cells):
                if cell.cell_type != "code":
                    continue
                try:
                    self.client.execute_cell(cell, index)
                except CellTimeoutError:
                    self.timed_out.add(index)
                    cell.outputs.append(
                        nbformat.v4.new_output("error", **TIMEOUT_ERROR)
                    )
                    self.notes.append(
                        f"cell {index} ran past {self.timeout:g} s and did "
                        "not stop when interrupted; the remaining cells "
                        "were not run"
                    )
                    return
                except DeadKernelError:
                    self.notes.append(
                        f"the kernel died while running cell {index}; "
                        "the remaining cells were not run"
                    )
                    return
                self.executed.add(index)


def _score(cell, index, run):
    """QuestionGrade of one grade cell after the run."""
    grade_id = _grade_id(cell)
    max_points = float(cell.metadata["nbgrader"].get("points", 0))
    if is_solution(cell):
        return QuestionGrade(grade_id, None, max_points, "manual")
    if cell.cell_type != "code" or index not in run.executed:
        if index in run.timed_out:
            return QuestionGrade(
                grade_id, 0.0, max_points, "timeout", "interrupted"
            )
        return QuestionGrade(grade_id, 0.0, max_points, "not run")
    points, _ = determine_grade(cell)
    points = float(points)
    if index in run.timed_out:
        return QuestionGrade(
            grade_id, 0.0, max_points, "timeout", "interrupted"
        )
    if points == 0.0:
        return QuestionGrade(
            grade_id, 0.0, max_points, "failed", _first_error(cell) or ""
        )
    return QuestionGrade(
        grade_id,
        points,
        max_points,
        "passed" if points == max_points else "partial",
    )


def _read_notebook(path):
    """nbformat.read with one clear message for every way it can fail."""
    try:
        return nbformat.read(path, as_version=4), None
    except FileNotFoundError:
        return None, f"no such file: {path}"
    # invalid JSON, not a notebook, unreadable bytes
    except Exception as error:
        return (
            None,
            "the file is not a readable Jupyter notebook "
            f"({type(error).__name__}: {error})",
        )


def grade_notebook(notebook, source=None, *, timeout=DEFAULT_TIMEOUT):
    """Execute a submitted notebook and score its test cells.

    Parameters
    ----------
    notebook : str or path-like
        The student's notebook (a released notebook, filled in).
    source : str or path-like, optional
        The instructor's solution notebook, or a folder holding it under the
        same file name. Its locked cells (the tests, hidden tests included,
        and the read-only cells) replace the student's copies before the run,
        and its points count. Without it, the notebook is graded with the
        tests it contains (no hidden tests).
    timeout : float, default=120
        Time limit per cell, in seconds. A cell that runs longer is
        interrupted (its question and the questions that depend on it score
        zero) and execution goes on with the next cell; a cell that does not
        stop when interrupted ends the run. A fraction of a second is
        rounded up to the next whole second (nbclient's unit).

    Returns
    -------
    GradeReport
        Points per question and the total. Grading never raises for a bad
        submission: an unreadable notebook, or a kernel that dies or does not
        start, is reported in ``error`` / ``notes`` with zero points for the
        questions affected.

    Raises
    ------
    ValueError
        If ``timeout`` is not a positive finite number, or the instructor's
        ``source`` notebook cannot be read (a problem on the instructor's
        side).

    Notes
    -----
    A test cell scores its points when it runs without an error and writes
    nothing to stderr, zero otherwise, as ``nbgrader autograde`` scores it
    (``nbgrader.utils.determine_grade``); manually graded answers are listed
    with status ``"manual"`` and not added to the total.
    """
    if (
        not isinstance(timeout, numbers.Real)
        or isinstance(timeout, bool)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise ValueError(
            f"timeout must be a positive number of seconds, got {timeout!r}."
        )
    path = Path(notebook)
    report = GradeReport(str(path))
    nb, error = _read_notebook(path)
    original = None
    if source is not None:
        source_path = Path(source)
        if source_path.is_dir():
            source_path = source_path / path.name
        original, source_error = _read_notebook(source_path)
        if source_error:
            raise ValueError(
                f"Cannot read the solution notebook: {source_error}"
            )
    if nb is None:
        report.error = f"cannot grade: {error}"
        if original is not None:
            report.questions = [
                QuestionGrade(_grade_id(c), None if is_solution(c) else 0.0,
                              float(c.metadata["nbgrader"].get("points", 0)),
                              "manual" if is_solution(c) else "not run")
                for c in original.cells if is_grade(c)
            ]  # fmt: skip
        return report

    resources = {}
    nb, resources = DeduplicateIds().preprocess(nb, resources)
    if original is not None:
        nb, resources = RestoreLockedCells(source=original).preprocess(
            nb, resources
        )
        if resources["restored_missing"]:
            report.notes.append(
                "restored deleted cells: "
                + ", ".join(resources["restored_missing"])
            )
    else:
        report.notes.append(
            "no --source given: graded with the tests in the notebook "
            "(no hidden tests)"
        )
    nb, resources = ClearOutput().preprocess(nb, resources)

    run = _Run(nb, timeout, path.parent.resolve())
    try:
        run.run()
    except (
        Exception
    ) as error:  # the kernel did not start, or the client failed
        report.error = (
            f"the notebook could not be run ({type(error).__name__}: {error})"
        )
    report.notes += run.notes
    errors = [
        (index, _first_error(cell))
        for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        and not _is_autograded_test(cell)
        and index not in run.timed_out
        and _first_error(cell)
    ]
    for index, message in errors[:3]:
        name = _grade_id(nb.cells[index])
        where = f"cell {index}" + (f" ({name})" if name else "")
        report.notes.append(f"{where} raised {message}")
    report.questions = [
        _score(cell, index, run)
        for index, cell in enumerate(nb.cells)
        if is_grade(cell)
    ]
    report.executed_notebook = nb
    return report


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m svmlib.teaching",
        description="Release student versions of the svmbook assignments "
        "and grade submissions.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    rel = commands.add_parser(
        "release",
        help="write the student notebooks (solutions and hidden tests "
        "removed)",
    )
    rel.add_argument(
        "source",
        metavar="SOURCE_DIR",
        help="folder of solution notebooks (or one notebook)",
    )
    rel.add_argument(
        "out_dir", metavar="OUT_DIR", help="folder for the student notebooks"
    )
    grd = commands.add_parser(
        "grade",
        help="execute filled-in notebooks and report points per question",
    )
    grd.add_argument(
        "notebooks",
        metavar="NOTEBOOK",
        nargs="+",
        help="submitted notebook(s)",
    )
    grd.add_argument(
        "--source", metavar="SOURCE_NOTEBOOK",
        help="the solution notebook, or the folder of solution notebooks "
        "(restores the hidden tests)",
    )  # fmt: skip
    grd.add_argument(
        "--timeout", metavar="SECONDS", type=float, default=DEFAULT_TIMEOUT,
        help=f"time limit per cell (default {DEFAULT_TIMEOUT})",
    )  # fmt: skip
    grd.add_argument(
        "--csv", metavar="FILE", help="also append the scores to this CSV file"
    )
    grd.add_argument(
        "--output",
        metavar="DIR",
        help="save the executed notebooks here, as feedback",
    )
    return parser


def _write_csv(path, reports):
    path = Path(path)
    new = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.writer(handle)
        if new:
            writer.writerow(
                ["notebook", "question", "points", "max_points", "status"]
            )
        for report in reports:
            for q in report.questions:
                points = "" if q.points is None else q.points
                writer.writerow(
                    [
                        report.notebook,
                        q.grade_id,
                        points,
                        q.max_points,
                        q.status,
                    ]
                )
            writer.writerow(
                [
                    report.notebook,
                    "TOTAL (autograded)",
                    report.score,
                    report.max_score,
                    "",
                ]
            )


def main(argv=None):
    """Command-line entry point: ``release`` and ``grade``.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 on success; 1 if a notebook could not be released or
        could not be run at all (the message says why); 2 for bad usage.
    """
    args = _parser().parse_args(argv)
    if args.command == "release":
        try:
            written = release(args.source, args.out_dir)
        except Exception as error:
            print(
                f"release failed: {type(error).__name__}: {error}",
                file=sys.stderr,
            )
            return 1
        for target in written:
            print(f"wrote {target}")
        return 0

    if not math.isfinite(args.timeout) or args.timeout <= 0:
        print(
            "--timeout must be a positive number of seconds", file=sys.stderr
        )
        return 2
    reports, status = [], 0
    # a progress bar for a person at a terminal; disable=None turns it off
    # when stderr is not a terminal (CI, pytest, a log file)
    progress = tqdm(
        args.notebooks,
        desc="grading",
        unit="notebook",
        file=sys.stderr,
        disable=None,
    )
    for notebook in progress:
        progress.set_postfix_str(Path(notebook).name)
        try:
            report = grade_notebook(
                notebook, args.source, timeout=args.timeout
            )
        except ValueError as error:
            progress.close()
            print(f"grade failed: {error}", file=sys.stderr)
            return 1
        # above the bar, which tqdm draws again below
        progress.write(report.to_text(), file=sys.stdout)
        sys.stdout.flush()
        if report.error:
            status = 1
        if (
            args.output
            and getattr(report, "executed_notebook", None) is not None
        ):
            Path(args.output).mkdir(parents=True, exist_ok=True)
            nbformat.write(
                report.executed_notebook,
                Path(args.output) / Path(notebook).name,
            )
        reports.append(report)
    if args.csv:
        _write_csv(args.csv, reports)
    return status


if __name__ == "__main__":
    sys.exit(main())
