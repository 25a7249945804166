"""Grading one submission: restore the tests, run it guarded, score it.

:func:`grade_notebook` reads a submission, puts back the instructor's
read-only and test cells (:class:`RestoreLockedCells`), and runs it cell
by cell in a kernel of its own, in a fresh folder and, where bubblewrap is
installed, a sandbox (:mod:`svmbook_classroom.sandbox`). Before the student's
first cell the kernel gets a guard (:mod:`svmbook_classroom.kernel_guard`),
which also replaces the assignment's off-limits functions by stubs that
refuse calls from the student's code (on during the student's cells and
the probes of the hidden checks, off during the instructor's cells);
before every test cell the guard undoes what a submission could have bent
to pass it, and notes what it undid. A test cell scores its points when the
kernel reports that it ran without an error and it wrote nothing to
stderr (nbgrader's rule), zero otherwise. What the guard found, what the
kernel tried to reach outside its folder, and the off-limits svmlib
functions an answer calls (:mod:`svmbook_classroom.off_limits`) become the
report's *flags*, for the instructor to review.
"""

import copy
import json
import math
import numbers
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbgrader.preprocessors import (
    ClearOutput,
    DeduplicateIds,
    NbGraderPreprocessor,
)
from nbgrader.utils import determine_grade, is_grade, is_locked, is_solution
from traitlets import Any

from . import checks as _checks
from . import kernel_guard, sandbox
from .off_limits import dynamic_code, off_limits_uses
from .sandbox import Limits


def printable(text):
    r"""Return ``text`` with control characters escaped, on one line.

    Everything a submission can put in a report (error messages, file
    names, paths) goes through this before it reaches a terminal or a
    CSV file: an escape sequence or a newline cannot rewrite the
    instructor's screen or add lines to a report.

    Parameters
    ----------
    text : object
        Converted with ``str``.

    Returns
    -------
    str
        The text, each non-printable character written as Python writes
        it in a string literal (``\x1b``, ``\n``).

    Examples
    --------
    >>> from svmbook_classroom.grading import printable
    >>> print(printable("red\x1b[31m\nFLAG: none"))
    red\x1b[31m\nFLAG: none
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _capped(lines, what):
    """At most MAX_FLAGS lines of at most MAX_LENGTH characters each."""
    lines = [
        line if len(line) <= MAX_LENGTH else line[: MAX_LENGTH - 3] + "..."
        for line in (printable(line) for line in lines)
    ]
    if len(lines) > MAX_FLAGS:
        extra = len(lines) - MAX_FLAGS + 1
        lines = lines[: MAX_FLAGS - 1] + [f"... and {extra} more {what}"]
    return lines


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

#: Isolation modes of :func:`grade_notebook`.
ISOLATION = ("auto", "sandbox", "none")

#: The most flags and notes a report keeps, and the longest of each
#: (a loop of attempts must not flood the terminal or a spreadsheet cell).
MAX_FLAGS = 20
MAX_LENGTH = 300


class SourceError(ValueError):
    """The instructor's solution notebook cannot be read (stops a batch).

    A broken student notebook costs only its own row; a broken source
    notebook leaves nothing to grade against, so the batch stops.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Without
    nbgrader: python -m svmbook_classroom".

    Examples
    --------
    >>> from svmbook_classroom.grading import SourceError
    >>> issubclass(SourceError, ValueError)
    True
    """


__all__ = [
    "DEFAULT_TIMEOUT",
    "GradeReport",
    "Limits",
    "QuestionGrade",
    "RestoreLockedCells",
    "SourceError",
    "grade_notebook",
]


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _is_autograded_test(cell):
    return is_grade(cell) and not is_solution(cell)


def _is_given(cell):
    """Tell whether a cell is an instructor's read-only cell, not a test."""
    return is_locked(cell) and not is_grade(cell)


class RestoreLockedCells(NbGraderPreprocessor):
    """Put back the instructor's version of every locked cell, by grade_id.

    Locked cells are the autograded test cells (with their hidden tests) and
    the read-only cells. A locked cell that the student deleted is inserted
    again after the nearest preceding marked cell. Grade metadata (points)
    always comes from the instructor's notebook; grade cells that the
    instructor's notebook does not know lose their grade mark.

    This plays the part of nbgrader's ``OverwriteCells``, which reads the
    instructor's cells from the course database instead.

    Parameters
    ----------
    **kwargs
        Traitlets of the preprocessor; ``source``, the instructor's
        solution notebook, is the one it needs.

    Attributes
    ----------
    source : nbformat.NotebookNode
        The instructor's solution notebook.

    References
    ----------
    nbgrader's ``OverwriteCells`` preprocessor; Project Jupyter et al. (2019),
    "nbgrader: a tool for creating and grading assignments in the Jupyter
    Notebook", *Journal of Open Source Education* 2(11), 32.

    Examples
    --------
    A student edited a test cell; the instructor's version comes back:

    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmbook_classroom import RestoreLockedCells
    >>> def test_cell(source):
    ...     return new_code_cell(source, metadata={"nbgrader": {
    ...         "grade": True, "solution": False, "locked": True,
    ...         "grade_id": "test_x", "points": 1, "schema_version": 3}})
    >>> solution = new_notebook(cells=[test_cell("assert x == 4")])
    >>> student = new_notebook(cells=[test_cell("assert True")])
    >>> restore = RestoreLockedCells(source=solution)
    >>> nb, resources = restore.preprocess(student, {})
    >>> nb.cells[0].source
    'assert x == 4'
    """

    source = Any(help="The instructor's solution notebook (nbformat 4).")

    def preprocess(self, nb, resources):
        """Restore the locked cells of ``nb`` from the instructor's notebook.

        Parameters
        ----------
        nb : nbformat.NotebookNode
            The student's notebook; changed in place.
        resources : dict
            nbconvert's resources; the grade_ids of the restored cells that
            the student had deleted go to ``resources["restored_missing"]``.

        Returns
        -------
        nb : nbformat.NotebookNode
            The same notebook, its locked cells the instructor's.
        resources : dict
            The same dict.

        References
        ----------
        nbgrader's ``OverwriteCells`` preprocessor; Project Jupyter et al.
        (2019), "nbgrader: a tool for creating and grading assignments in the
        Jupyter Notebook", *Journal of Open Source Education* 2(11), 32.

        Examples
        --------
        A deleted test cell is put back:

        >>> from nbformat.v4 import new_code_cell, new_notebook
        >>> from svmbook_classroom import RestoreLockedCells
        >>> def test_cell(source):
        ...     return new_code_cell(source, metadata={"nbgrader": {
        ...         "grade": True, "solution": False, "locked": True,
        ...         "grade_id": "test_x", "points": 1, "schema_version": 3}})
        >>> solution = new_notebook(cells=[test_cell("assert x == 4")])
        >>> student = new_notebook(cells=[new_code_cell("x = 4")])
        >>> restore = RestoreLockedCells(source=solution)
        >>> nb, resources = restore.preprocess(student, {})
        >>> [cell.source for cell in nb.cells], resources
        (['assert x == 4', 'x = 4'], {'restored_missing': ['test_x']})
        """
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
        The cell's ``grade_id``.
    points : float or None
        Points earned; None for a manually graded answer.
    max_points : float
        The points the cell is worth.
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
    flags : list of str
        Why the instructor should look at this submission: tampering that
        the guard undid, files it tried to read or write outside its
        folder, the network, new processes, off-limits functions, code run
        by name. Empty for an honest submission.
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
    flags: list = field(default_factory=list)
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
        """Return the points earned, by grade_id.

        Returns
        -------
        dict of str to float or None
            Points earned per question, None for manual answers.

        References
        ----------
        The book's page for instructors (``instructors.md``), "Without
        nbgrader".

        Examples
        --------
        >>> from svmbook_classroom import GradeReport, QuestionGrade
        >>> report = GradeReport("a.ipynb", questions=[
        ...     QuestionGrade("test_x", 1.0, 1.0, "passed"),
        ...     QuestionGrade("answer", None, 2.0, "manual")])
        >>> report.points_by_question()
        {'test_x': 1.0, 'answer': None}
        """
        return {q.grade_id: q.points for q in self.questions}

    def to_text(self):
        """Return a plain-text table of the scores, for the terminal.

        Returns
        -------
        str
            The notebook, errors, flags and notes, one line per question,
            and the total.

        References
        ----------
        The book's page for instructors (``instructors.md``), "Without
        nbgrader".

        Examples
        --------
        >>> from svmbook_classroom import GradeReport, QuestionGrade
        >>> report = GradeReport("a.ipynb", flags=["wrote /etc/passwd"],
        ...     questions=[QuestionGrade("test_x", 1.0, 1.0, "passed")])
        >>> print(report.to_text())
        Grading a.ipynb
          FLAG: wrote /etc/passwd
          question       points  status
          test_x        1 / 1  passed
          Total (autograded): 1 / 1
        """
        lines = [f"Grading {printable(self.notebook)}"]
        if self.error:
            lines.append(f"  ERROR: {printable(self.error)}")
        lines += [f"  FLAG: {printable(flag)}" for flag in self.flags]
        lines += [f"  note: {printable(note)}" for note in self.notes]
        if self.questions:
            width = max(len(printable(q.grade_id)) for q in self.questions)
            lines.append(f"  {'question':<{width}}  {'points':>11}  status")
            for q in self.questions:
                earned = "-" if q.points is None else f"{q.points:g}"
                score = f"{earned} / {q.max_points:g}"
                detail = f" ({printable(q.message)})" if q.message else ""
                name = printable(q.grade_id)
                lines.append(
                    f"  {name:<{width}}  {score:>11}  {q.status}{detail}"
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
    """Execute a notebook cell by cell under the guard; record everything.

    Attributes
    ----------
    executed : set of int
        Indices of the cells that ran to the end.
    status : dict of int to str
        The kernel's execution status of each cell that ran ("ok" or
        "error"): the grade of a test cell follows it, not its outputs.
    timed_out : set of int
    notes, flags : list of str
    """

    def __init__(
        self, nb, timeout, workspace, isolate, limits, checks=None,
        off_limits=(),
    ):  # fmt: skip
        self.nb = nb
        self.off_limits = list(off_limits)
        self._student = False  # whether the off-limits stubs are on
        self.checks = checks or {}
        self.results = {}  # grade_id -> {probe name: data or ResultError}
        self.limits = limits
        self.executed = set()
        self.status = {}
        self.timed_out = set()
        self.notes = []
        self.flags = []
        self.guard = f"__svmbook_guard_{secrets.token_hex(8)}"
        self._grader = None  # the grader's cell while it runs
        self.workspace = workspace
        self.isolate = isolate
        self.manager = sandbox.kernel_manager(workspace, isolate, limits)
        self.client = NotebookClient(
            nb,
            km=self.manager,
            # nbclient counts whole seconds
            timeout=math.ceil(timeout),
            interrupt_on_timeout=True,
            error_on_timeout=TIMEOUT_ERROR,
            allow_errors=True,
            raise_on_iopub_timeout=True,
            shutdown_kernel="immediate",
            extra_arguments=["--HistoryManager.hist_file=:memory:"],
            resources={"metadata": {"path": str(workspace.path)}},
            on_cell_executed=self._on_cell_executed,
        )
        self.timeout = timeout

    def _on_cell_executed(self, cell, cell_index, execute_reply):
        """Record the status; a timeout is not among nbclient's outputs."""
        if cell is self._grader:  # the grader's own cells
            return
        content = execute_reply["content"]
        self.status[cell_index] = content.get("status")
        if (
            content.get("status") == "error"
            and content.get("ename") == TIMEOUT_ERROR["ename"]
        ):
            self.timed_out.add(cell_index)
            cell.outputs.append(
                nbformat.v4.new_output("error", **TIMEOUT_ERROR)
            )
            self.notes.append(
                f"cell {cell_index} ran past {self.client.timeout:g} s and "
                "was interrupted"
            )

    def _grader_cell(self, code):
        """Run the grader's own code in the kernel; return its stdout."""
        cell = nbformat.v4.new_code_cell(code)
        # nbclient stores the cell at its index: a place at the end, freed
        # again after the run
        self.nb.cells.append(cell)
        self._grader = cell
        try:
            self.client.execute_cell(
                cell, len(self.nb.cells) - 1, store_history=False
            )
        finally:
            self.nb.cells.pop()
            self._grader = None
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if errors:
            raise RuntimeError(f"{errors[0].ename}: {errors[0].evalue}")
        return "".join(
            o.text for o in cell.outputs if o.output_type == "stream"
        )

    def _install_guard(self):
        path = self.workspace.path
        source = Path(kernel_guard.__file__).read_text()
        self._grader_cell(
            "def _svmbook_install():\n"
            "    namespace = {}\n"
            f"    exec(compile({source!r}, 'svmbook-guard', 'exec'), "
            "namespace)\n"
            f"    namespace['install']({self.guard!r}, "
            f"{sandbox.read_roots(path)!r}, {sandbox.write_roots(path)!r}, "
            f"{self.off_limits!r}, {sandbox.python_roots()!r})\n"
            "_svmbook_install()\n"
            "del _svmbook_install\n"
        )

    def _call_guard(self, method, *args):
        arguments = ", ".join(repr(a) for a in args)
        return self._grader_cell(f"{self.guard}.{method}({arguments})")

    def _run_cell(self, cell, index):
        """Run one notebook cell, with the guard's calls around it."""
        # the guard lets the instructor's cells call the off-limits
        # functions, and turns their stubs on for the student's cells
        if _is_autograded_test(cell):
            self._call_guard("before_test", _grade_id(cell))
            self._student = False
        elif _is_given(cell):
            self._call_guard("before_given")
            self._student = False
        elif not self._student and self.off_limits:
            self._call_guard("before_student")
            self._student = True
        self.client.execute_cell(cell, index)
        if _is_given(cell):
            self._call_guard("after_given")

    def _read_guard_report(self):
        try:
            report = json.loads(self._call_guard("report").strip())
        except (RuntimeError, ValueError) as error:
            self.flags.append(
                "the grader's guard did not answer at the end "
                f"({error}); the kernel was tampered with"
            )
            return
        self.flags += report["findings"]
        for kind, detail in report["events"]:
            self.flags.append(f"{_EVENT_TEXT[kind]}: {detail}")

    def _budget_left(self, deadline, index):
        """Set the cell's time limit from what is left of the budget.

        Return False (with a note) when the notebook's budget is spent.
        """
        left = deadline - time.monotonic()
        if left < 1:
            self.notes.append(
                f"the notebook ran past its budget of "
                f"{self.limits.notebook_time:g} s before cell {index}; "
                "the remaining cells were not run"
            )
            return False
        self.client.timeout = math.ceil(min(self.timeout, left))
        return True

    def run(self):
        namespace = None
        try:
            # cleanup_kc: the kernel is stopped at the end although the
            # grader, not nbclient, made its manager
            with self.client.setup_kernel(cleanup_kc=True):
                if self.isolate:
                    namespace = sandbox.pid_namespace(
                        self.manager.provisioner.pid
                    )
                self._run_cells()
        finally:
            # the sandbox's processes are gone before the next kernel
            # starts: they count against its process limit
            if namespace and not sandbox.wait_for_namespace(namespace):
                self.notes.append(
                    "processes of the sandbox were still running 60 s "
                    "after its kernel was stopped"
                )
            cgroups = self.manager.cgroups
            if cgroups is not None:
                if cgroups.memory_reached():
                    self.flags.append(
                        "the sandbox reached its memory limit "
                        f"({self.limits.memory:g} MiB for all its processes)"
                    )
                cgroups.remove()

    def _run_cells(self):
        """Install the guard, run the cells, read the guard's report."""
        try:
            self._install_guard()
        except (RuntimeError, CellTimeoutError) as error:
            self.notes.append(f"the grader's guard failed: {error}")
        # the budget counts the cells, not the kernel's start
        deadline = time.monotonic() + self.limits.notebook_time
        for index, cell in enumerate(self.nb.cells):
            if cell.cell_type != "code":
                continue
            if not self._budget_left(deadline, index):
                return
            try:
                self._run_cell(cell, index)
            except CellTimeoutError:
                self.timed_out.add(index)
                cell.outputs.append(
                    nbformat.v4.new_output("error", **TIMEOUT_ERROR)
                )
                self.notes.append(
                    f"cell {index} ran past {self.client.timeout:g} s "
                    "and did not stop when interrupted; the remaining "
                    "cells were not run"
                )
                return
            except DeadKernelError:
                self.notes.append(
                    f"the kernel died while running cell {index} (it "
                    "exited, crashed, or used up a limit: "
                    f"{self.limits.describe()}); the remaining cells "
                    "were not run"
                )
                return
            except RuntimeError as error:  # a guard call failed
                self.flags.append(
                    f"the grader's guard failed before cell {index} "
                    f"({error}); the kernel was tampered with"
                )
            self.executed.add(index)
        self.client.timeout = math.ceil(self.timeout)
        if self.checks and self._budget_left(deadline, len(self.nb.cells)):
            self._run_probes()
        self._read_guard_report()

    def _run_probes(self):
        """Call the student's functions for the checks; read plain data.

        The inputs of every probe are written first, into a new folder of
        a random name; each probe then runs as a grader cell, and its
        result is read back as data only (:mod:`.checks`).
        """
        root = self.workspace.path / f"probes-{secrets.token_hex(8)}"
        root.mkdir()
        planned = []
        for q, check in enumerate(self.checks.values()):
            for p, probe in enumerate(check.probes):
                folder = root / f"q{q}p{p}"
                inputs = _checks.write_inputs(probe, folder)
                planned.append((check.grade_id, probe, folder, inputs))
        sandbox.hand_to_kernel(root)
        dead = False
        try:  # the student's functions run with the stubs on
            self._call_guard("before_student")
        except (RuntimeError, CellTimeoutError, DeadKernelError) as error:
            self.flags.append(
                f"the grader's guard failed before the checks ({error}); "
                "the kernel was tampered with"
            )
        for grade_id, probe, folder, inputs in planned:
            results = self.results.setdefault(grade_id, {})
            if dead:
                results[probe.name] = _checks.ResultError(
                    "not run: the kernel died during an earlier check"
                )
                continue
            try:
                # what the function returns is inspected in the kernel
                # (its type only) before the probe refuses or converts it
                self._grader_cell(
                    f"{self.guard}.watch_returns({probe.function!r})\n"
                    + _checks.runner_code(probe, folder, inputs)
                    + f"\n{self.guard}.unwatch_returns()\n"
                )
                results[probe.name] = _checks.read_result(folder)
            except _checks.ResultError as error:
                results[probe.name] = error
            except CellTimeoutError:
                results[probe.name] = _checks.ResultError(
                    f"{probe.function} ran past {self.client.timeout:g} s"
                )
            except DeadKernelError:
                dead = True
                results[probe.name] = _checks.ResultError(
                    f"the kernel died while {probe.function} ran"
                )
            except RuntimeError as error:  # the runner itself failed
                results[probe.name] = _checks.ResultError(
                    f"the grader could not call {probe.function} ({error})"
                )


#: How a kind of audit event reads in a flag.
_EVENT_TEXT = {
    "read": "tried to read outside its folder",
    "write": "tried to write outside its folder",
    "network": "tried to reach the network",
    "process": "started a process",
    "tamper": "tampered with the grader",
    "offlimits": "called an off-limits function, which the sandbox refused",
    "returned": "a checked function returned something that is not plain "
    "data (numbers, strings, lists, dicts, arrays); review it",
}


def _score(cell, index, run):
    """QuestionGrade of one grade cell after the run."""
    grade_id = _grade_id(cell)
    max_points = float(cell.metadata["nbgrader"].get("points", 0))
    if is_solution(cell):
        return QuestionGrade(grade_id, None, max_points, "manual")
    if index in run.timed_out:
        return QuestionGrade(
            grade_id, 0.0, max_points, "timeout", "interrupted"
        )
    if cell.cell_type != "code" or index not in run.executed:
        return QuestionGrade(grade_id, 0.0, max_points, "not run")
    points = float(determine_grade(cell)[0])
    if run.status.get(index) != "ok":
        points = 0.0  # the kernel's word, whatever the outputs say
    if points == 0.0:
        message = _first_error(cell) or "the kernel reported an error"
        return QuestionGrade(grade_id, 0.0, max_points, "failed", message)
    return QuestionGrade(
        grade_id,
        points,
        max_points,
        "passed" if points == max_points else "partial",
    )


def _answers_of_tests(nb):
    """Map each test cell's index to the student cells it checks.

    Those are the indices of the student cells since the previous test cell.
    """
    answers, pending = {}, []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if _is_autograded_test(cell):
            answers[index], pending = pending, []
        elif not is_locked(cell):
            pending.append(index)
    return answers


#: Off limits in every assignment: the grader and its reference code.
ALWAYS_OFF_LIMITS = ("svmbook_classroom",)


def _check_off_limits(nb, forbidden, report):
    """Zero the questions whose answers call off-limits functions; flag."""
    code = [
        (index, cell) for index, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
    ]  # fmt: skip
    uses = off_limits_uses(
        [(cell.source, not is_locked(cell)) for _, cell in code], forbidden
    )
    used = {index: names for (index, _), names in zip(code, uses, strict=True)}
    for index, names in used.items():
        if names:
            report.flags.append(
                f"cell {index} calls off-limits " + ", ".join(sorted(names))
            )
    for index, cell in code:
        calls = dynamic_code(cell.source) if not is_locked(cell) else []
        if calls:
            report.flags.append(
                f"cell {index} imports or runs code by name "
                f"({', '.join(calls)}): review it"
            )
    by_id = {q.grade_id: q for q in report.questions}
    for test, answers in _answers_of_tests(nb).items():
        names = set().union(*(used.get(a, set()) for a in answers))
        question = by_id.get(_grade_id(nb.cells[test]))
        if names and question is not None and question.points:
            question.points = 0.0
            question.status = "off limits"
            question.message = "calls " + ", ".join(sorted(names))


def _strip_unknown_marks(nb, original, report):
    """Unmark the cells whose nbgrader metadata the assignment lacks; flag.

    A mark without a ``grade_id`` (nbgrader's ``DeduplicateIds`` would
    raise ``KeyError`` on it), a mark that is not a dict, or, when the
    solution notebook is known, a ``grade_id`` it does not have: the cell
    becomes a plain student cell (run, and read for off-limits calls, as
    the student's own) and the submission is flagged.
    """
    known = None
    if original is not None:
        known = {_grade_id(c) for c in original.cells} - {None}
    for index, cell in enumerate(nb.cells):
        if "nbgrader" not in cell.get("metadata", {}):
            continue
        mark = cell.metadata["nbgrader"]
        grade_id = mark.get("grade_id") if isinstance(mark, dict) else None
        if not isinstance(grade_id, str):
            why = "without a grade_id"
        elif known is not None and grade_id not in known:
            why = f"with a grade_id the assignment does not have ({grade_id})"
        else:
            continue
        del cell.metadata["nbgrader"]
        report.flags.append(
            f"cell {index} carries nbgrader metadata {why}: graded as a "
            "student cell"
        )


def _limits_reached(nb, limits):
    """Return flags for the cells whose errors show a limit stopped them."""
    found = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            name, value = output.get("ename"), str(output.get("evalue"))
            if name == "MemoryError":
                found.append(
                    f"cell {index} reached the memory limit "
                    f"({limits.memory:g} MiB)"
                )
            elif "Resource temporarily unavailable" in value or (
                name == "BlockingIOError"
            ):
                found.append(
                    f"cell {index} reached the process limit "
                    f"({limits.processes:g})"
                )
            elif "File too large" in value:
                found.append(
                    f"cell {index} reached the file-size limit "
                    f"({limits.file_size:g} MiB)"
                )
            elif "No space left on device" in value:
                found.append(
                    f"cell {index} filled a folder of the sandbox (/tmp "
                    f"and /dev/shm hold {limits.file_size:g} MiB each)"
                )
    return found


def _read_notebook(path, content=None):
    """nbformat.read with one clear message for every way it can fail."""
    try:
        if content is not None:
            return nbformat.reads(content, as_version=4), None
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


def _check_timeout(timeout):
    if (
        not isinstance(timeout, numbers.Real)
        or isinstance(timeout, bool)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise ValueError(
            f"timeout must be a positive number of seconds, got {timeout!r}."
        )


def use_sandbox(isolation):
    """Tell whether to run the kernel in bubblewrap, for an isolation mode."""
    if isolation not in ISOLATION:
        raise ValueError(
            f"isolation must be one of {ISOLATION}, got {isolation!r}."
        )
    found = sandbox.bwrap() is not None
    if isolation == "sandbox" and not found:
        raise ValueError(
            "isolation='sandbox' needs bubblewrap (bwrap), which is not "
            "installed; install the Debian package bubblewrap."
        )
    return found and isolation != "none"


def _unreadable(report, original, message):
    report.error = f"cannot grade: {message}"
    if original is not None:
        report.questions = [
            QuestionGrade(_grade_id(c), None if is_solution(c) else 0.0,
                          float(c.metadata["nbgrader"].get("points", 0)),
                          "manual" if is_solution(c) else "not run")
            for c in original.cells if is_grade(c)
        ]  # fmt: skip
    return report


def grade_notebook(
    notebook,
    source=None,
    *,
    timeout=DEFAULT_TIMEOUT,
    isolation="auto",
    content=None,
    limits=None,
):
    """Execute a submitted notebook in isolation and score its test cells.

    Parameters
    ----------
    notebook : str or path-like
        The student's notebook (a released notebook, filled in); it names
        the report.
    source : str or path-like, optional
        The instructor's solution notebook, or a folder holding it under the
        same file name. Its locked cells (the tests, hidden tests included,
        and the read-only cells) replace the student's copies before the run,
        its points count, and its metadata ``svmbook.off_limits`` lists the
        functions answers may not call; the hidden checks beside it
        (``checks/<notebook name>.py``, :mod:`~svmbook_classroom.checks`)
        judge their questions outside the kernel. Without it, the notebook
        is graded with the tests it contains (no hidden tests).
    timeout : float, default=120
        Time limit per cell, in seconds. A cell that runs longer is
        interrupted (its question and the questions that depend on it score
        zero) and execution goes on with the next cell; a cell that does not
        stop when interrupted ends the run. A fraction of a second is
        rounded up to the next whole second (nbclient's unit).
    isolation : {"auto", "sandbox", "none"}, default="auto"
        "sandbox" runs the kernel in bubblewrap (an error if it is not
        installed), "none" does not, "auto" does when bubblewrap is there
        and otherwise says so in a note. In every mode the kernel starts in
        a fresh temporary folder, removed afterwards.
    content : str, optional
        The notebook's text, already read (the command line reads every
        submission before grading any); default: read ``notebook``.
    limits : Limits, optional
        Memory, processes, CPU time and file size of the kernel in the
        sandbox, and the wall-clock budget of the whole notebook; default
        ``Limits()``. Only the budget applies without a sandbox.

    Returns
    -------
    GradeReport
        Points per question and the total, notes and flags. Grading never
        raises for a bad submission: an unreadable notebook, metadata that
        nbgrader's preprocessors reject, a crash of the grader on it, or a
        kernel that dies or does not start, is reported in ``error`` /
        ``notes`` with zero points for the questions affected. A cell
        stopped by a memory, process or file-size limit is flagged.

    Raises
    ------
    ValueError
        If ``timeout`` is not a positive finite number, ``isolation`` is
        not one of the three or asks for a sandbox that cannot be had.
    svmbook_classroom.grading.SourceError
        A ValueError: the instructor's ``source`` notebook cannot be read
        (a problem on the instructor's side).

    Notes
    -----
    A question with a hidden check (:mod:`~svmbook_classroom.checks`)
    scores from the check alone: the student's functions are called in the
    kernel on the check's inputs, and the check's judge decides, in the
    grader's process, from the plain data returned. Any other test cell
    scores its points when the kernel reports that it ran without an error
    and it wrote nothing to stderr, zero otherwise, as ``nbgrader
    autograde`` scores it; a question whose answer cells call an
    off-limits function scores zero (status ``"off limits"``); manually
    graded answers are listed with status ``"manual"`` and not added to the
    total.

    References
    ----------
    ``nbgrader autograde``, Project Jupyter et al. (2019), "nbgrader: a tool
    for creating and grading assignments in the Jupyter Notebook", *Journal of
    Open Source Education* 2(11), 32; the book's page for instructors
    (``instructors.md``), "Without nbgrader".

    Examples
    --------
    A notebook with one answer and one test cell, graded without a
    sandbox (it starts a kernel: a few seconds):

    >>> import tempfile
    >>> from pathlib import Path
    >>> import nbformat
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmbook_classroom import grade_notebook
    >>> def test_cell(source):
    ...     return new_code_cell(source, metadata={"nbgrader": {
    ...         "grade": True, "solution": False, "locked": True,
    ...         "grade_id": "test_x", "points": 1, "schema_version": 3}})
    >>> path = Path(tempfile.mkdtemp()) / "sum.ipynb"
    >>> nb = new_notebook(cells=[new_code_cell("x = 2 + 2"),
    ...                          test_cell("assert x == 4")])
    >>> nbformat.write(nb, path)
    >>> report = grade_notebook(path, isolation="none")
    >>> report.score, report.max_score, report.questions[0].status
    (1.0, 1.0, 'passed')
    """
    _check_timeout(timeout)
    isolate = use_sandbox(isolation)
    limits = Limits() if limits is None else limits
    if not isinstance(limits, Limits):
        raise ValueError(f"limits must be a Limits, got {limits!r}.")
    path = Path(notebook)
    report = GradeReport(str(path))
    nb, error = _read_notebook(path, content)
    original, checks = None, {}
    if source is not None:
        source_path = Path(source)
        if source_path.is_dir():
            source_path = source_path / path.name
        original, source_error = _read_notebook(source_path)
        if source_error:
            raise SourceError(
                f"Cannot read the solution notebook: {source_error}"
            )
        try:
            checks = _checks.load_checks(_checks.checks_file(source_path))
        except Exception as error:
            raise SourceError(
                f"Cannot read the checks of {source_path.name}: "
                f"{type(error).__name__}: {error}"
            ) from error
    if nb is None:
        return _unreadable(report, original, error)
    try:
        _grade(
            nb, original, report, timeout, isolate, isolation, limits, checks
        )
    except Exception as error:  # the grader failed on this submission
        report.flags, report.questions = [], []
        _unreadable(
            report,
            original,
            f"the grader failed on it ({type(error).__name__}: {error})",
        )
        report.executed_notebook = None
    report.flags = _capped(report.flags, "flags")
    report.notes = _capped(report.notes, "notes")
    return report


def _judged(cell, check, run):
    """QuestionGrade of a question judged outside, from its probes' data."""
    grade_id = _grade_id(cell)
    max_points = float(cell.metadata["nbgrader"].get("points", 0))
    results = run.results.get(grade_id, {})
    for probe in check.probes:
        result = results.get(probe.name)
        if result is None:
            return QuestionGrade(
                grade_id, 0.0, max_points, "not run",
                f"{probe.function} was not called (the notebook stopped "
                "before the checks)",
            )  # fmt: skip
        if isinstance(result, _checks.ResultError):
            return QuestionGrade(
                grade_id, 0.0, max_points, "failed",
                f"{probe.function}: {result}",
            )  # fmt: skip
    passed, message = check.decide(results)
    if passed:
        return QuestionGrade(grade_id, max_points, max_points, "passed")
    return QuestionGrade(grade_id, 0.0, max_points, "failed", message)


def _grade(
    nb, original, report, timeout, isolate, isolation, limits, checks=None
):
    """Preprocess, run and score ``nb``; fill in ``report``."""
    checks = checks or {}
    _strip_unknown_marks(nb, original, report)
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
    if not isolate:
        report.notes.append(
            sandbox.ISOLATION_NOTE
            if isolation == "auto"
            else "isolation: none (as asked); the kernel ran with the "
            "grader's permissions"
        )

    # the assignment's off-limits functions are stubs in the kernel (the
    # grader itself, always off limits, is never imported there)
    off_limits = (
        (original or nb).metadata.get("svmbook", {}).get("off_limits", [])
    )
    if not (
        isinstance(off_limits, list)
        and all(isinstance(name, str) for name in off_limits)
    ):
        off_limits = []
    with sandbox.Workspace() as workspace:
        run = _Run(nb, timeout, workspace, isolate, limits, checks, off_limits)
        try:
            run.run()
        except Exception as error:  # the kernel did not start, or the client
            report.error = (
                "the notebook could not be run "
                f"({type(error).__name__}: {error})"
            )
    report.notes += run.notes
    report.flags += run.flags
    report.flags += _limits_reached(nb, limits)
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
        _judged(cell, checks[_grade_id(cell)], run)
        if _grade_id(cell) in checks
        else _score(cell, index, run)
        for index, cell in enumerate(nb.cells)
        if is_grade(cell)
    ]
    forbidden = [
        *(original or nb).metadata.get("svmbook", {}).get("off_limits", []),
        *ALWAYS_OFF_LIMITS,
    ]
    _check_off_limits(nb, forbidden, report)
    report.executed_notebook = nb
