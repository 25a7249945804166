"""What grading leaves behind: feedback per student, a CSV, a class summary.

* :func:`feedback_notebook` is what a student gets back: a table of points
  at the top, their cells without the outputs of the grading run, the test
  cells as the student edition shows them (the hidden tests removed, as
  nbgrader's ``generate_feedback`` does), and only the grader's findings
  as outputs: the first error of each cell (an error inside a hidden test
  reported without its code or message; a message that quotes a line of
  a hidden test withheld) and the instructor's hint for a question that
  lost points.
* ``feedback_paths`` names one feedback file per submission from its
  path (``submitted/alice/03_smo.ipynb`` -> ``alice/03_smo.ipynb``), so
  that no two students' files collide.
* :func:`update_csv` keeps one CSV of grades: re-grading a notebook
  replaces its rows instead of appending new ones.
* :func:`class_summary` gives, per question, how the class did.
"""

import copy
import csv
import os
import re
import statistics
import tempfile
from pathlib import Path

from nbformat.v4 import new_markdown_cell, new_output
from nbgrader.preprocessors import ClearHiddenTests
from nbgrader.utils import is_grade, is_solution

from .grading import MAX_LENGTH, printable

__all__ = ["class_summary", "feedback_notebook", "update_csv"]

#: Columns of the grades CSV.
CSV_COLUMNS = ("notebook", "question", "points", "max_points", "status",
               "flags")  # fmt: skip
#: The question name of the row holding a notebook's total.
TOTAL = "TOTAL (autograded)"

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_MARKED_LINE = re.compile(r"^-+> *(\d+)", re.M)
_HIDDEN = "### BEGIN HIDDEN TESTS"
_HIDDEN_REGION = re.compile(
    r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S
)
#: What replaces an error message that quotes the hidden tests.
WITHHELD = "(message withheld: it quotes the hidden tests)"


def _visible_lines(source):
    """How many lines of a test cell come before its hidden tests."""
    lines = source.splitlines()
    return next(
        (k for k, line in enumerate(lines) if line.strip() == _HIDDEN),
        len(lines),
    )


def _hidden_lines(nb):
    """Lines of the hidden tests that the student edition does not show."""
    hidden, shown = set(), set()
    for cell in nb.cells:
        regions = _HIDDEN_REGION.findall(cell.source)
        for region in regions:
            hidden |= {line.strip() for line in region.splitlines()}
        rest = _HIDDEN_REGION.sub("", cell.source)
        shown |= {line.strip() for line in rest.splitlines()}
    return {line for line in hidden - shown if len(line) >= 8}


def _message(text, hidden):
    """One line of at most MAX_LENGTH printable characters, or WITHHELD."""
    if any(line in text or line in str(text).replace("\\n", "\n")
           for line in hidden):  # fmt: skip
        return WITHHELD
    text = printable(text)
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 3] + "..."


def _error(ename, text, hidden):
    text = _message(text, hidden)
    return new_output(
        "error", ename=printable(ename), evalue=text, traceback=[text]
    )


def _student_error(output, visible, hidden):
    """Return a test cell's error output without the hidden tests' code."""
    traceback = output.get("traceback", [])
    marked = _MARKED_LINE.findall(_ANSI.sub("", "\n".join(traceback)))
    line = int(marked[-1]) if marked else None
    if line is not None and line <= visible:
        where = f"line {line} of the test cell"
    else:
        where = "a hidden test"
    text = f"{output.ename} in {where}"
    if output.get("evalue") and where != "a hidden test":
        text += f": {output.evalue}"
    return _error(output.ename, text, hidden)


def _points_table(report, said=None):
    """Return the points table: a row per question, what the grader said.

    ``said`` maps a question's ``grade_id`` to the text shown for it: the
    message of a question judged outside the kernel (the student's own
    error, or the instructor's hint when the answer is wrong), one line,
    its ``|`` escaped for the table.
    """
    said = said or {}
    rows = [
        "| question | points | status | what the grader found |",
        "|---|---|---|---|",
    ]
    for q in report.questions:
        earned = "to be graded" if q.points is None else f"{q.points:g}"
        text = said.get(q.grade_id, "").replace("|", "\\|")
        rows.append(f"| `{q.grade_id}` | {earned} / {q.max_points:g} | "
                    f"{q.status} | {text} |")  # fmt: skip
    total = f"{report.score:g} / {report.max_score:g}"
    return "\n".join(
        [f"**Autograded total: {total}**", "", *rows]
    )  # fmt: skip


def _said(report, nb, hidden):
    """Return what the table may say of each question (``_points_table``).

    Only questions whose test cell holds no hidden region: a message from
    a hidden ``assert`` could quote it, and that cell's own error output
    already says what it may. Messages that quote a hidden line are
    withheld all the same.
    """
    in_notebook = {
        cell.metadata["nbgrader"].get("grade_id")
        for cell in nb.cells
        if cell.cell_type == "code"
        and is_grade(cell)
        and _HIDDEN in cell.source
    }
    return {
        q.grade_id: _message(q.message, hidden)
        for q in report.questions
        if q.message and q.grade_id not in in_notebook
    }


def feedback_notebook(report):
    """Return the notebook a student gets back (hidden tests removed).

    Parameters
    ----------
    report : GradeReport
        With its ``executed_notebook``.

    Returns
    -------
    nbformat.NotebookNode
        A copy of the notebook as it ran, with a table of points first
        (for a question judged outside the kernel, what the grader found:
        the student's own error, or the instructor's hint for a wrong
        answer); no output of the grading run is kept: each code cell shows, as
        output, only its first error (``Name: message``, the message
        withheld if it quotes a line of a hidden test), every test cell
        only its visible asserts (an error raised in a hidden test says so
        without its code or message), and a test cell whose question lost
        points the instructor's hint, from the solution notebook's cell
        metadata ``svmbook.hint``.

    References
    ----------
    ``nbgrader generate_feedback``, Project Jupyter et al. (2019), "nbgrader: a
    tool for creating and grading assignments in the Jupyter Notebook",
    *Journal of Open Source Education* 2(11), 32; the book's page for
    instructors (``instructors.md``), "Without nbgrader".

    Examples
    --------
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmbook_classroom import GradeReport, QuestionGrade
    >>> from svmbook_classroom.records import feedback_notebook
    >>> report = GradeReport("a.ipynb", questions=[
    ...     QuestionGrade("test_x", 1.0, 1.0, "passed")])
    >>> report.executed_notebook = new_notebook(cells=[new_code_cell("x = 4")])
    >>> nb = feedback_notebook(report)
    >>> len(nb.cells), nb.cells[0].cell_type, nb.cells[1].source
    (2, 'markdown', 'x = 4')
    """
    nb = copy.deepcopy(report.executed_notebook)
    hidden = _hidden_lines(nb)
    lost = {
        q.grade_id for q in report.questions
        if q.points is not None and q.points < q.max_points
    }  # fmt: skip
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        # the first error only, rewritten: whatever else the cell printed
        # (In, Out, a test's source read through inspect) could quote the
        # hidden tests
        errors = [o for o in cell.outputs if o.output_type == "error"][:1]
        if is_grade(cell) and not is_solution(cell):
            visible = _visible_lines(cell.source)
            outputs = [_student_error(o, visible, hidden) for o in errors]
            hint = cell.metadata.get("svmbook", {}).get("hint")
            if hint and cell.metadata["nbgrader"].get("grade_id") in lost:
                outputs.append(
                    new_output("stream", name="stdout", text=f"Hint: {hint}")
                )
        else:
            outputs = [
                _error(o.ename, f"{o.ename}: {o.get('evalue', '')}", hidden)
                for o in errors
            ]
        cell.outputs = outputs
    said = _said(report, nb, hidden)
    nb, _ = ClearHiddenTests().preprocess(nb, {})
    nb.cells.insert(0, new_markdown_cell(_points_table(report, said)))
    return nb


def feedback_paths(notebooks):
    """Return a feedback file name for each submission, unique, from its path.

    Parameters
    ----------
    notebooks : list of str
        Paths of the submissions.

    Returns
    -------
    list of pathlib.Path
        Relative paths: each submission's path below the folder that all
        of them share (its name alone when there is one submission).

    Examples
    --------
    >>> [str(p) for p in feedback_paths(["s/alice/03.ipynb",
    ...                                  "s/bob/03.ipynb"])]
    ['alice/03.ipynb', 'bob/03.ipynb']
    """
    full = [Path(os.path.abspath(path)) for path in notebooks]
    if len(full) == 1:
        return [Path(full[0].name)]
    common = Path(os.path.commonpath([p.parent for p in full]))
    return [path.relative_to(common) for path in full]


def _rows(report):
    """CSV rows of a report; every text printable, on one line.

    The flags cell holds at most ``grading.MAX_FLAGS`` flags of at most
    ``grading.MAX_LENGTH`` characters (spreadsheets take 32,767 per cell).
    """
    notebook = printable(report.notebook)
    flags = "; ".join(printable(flag)[:MAX_LENGTH] for flag in report.flags)
    flags = flags[:30000]
    if report.error:
        flags = "; ".join(
            filter(None, [f"ERROR: {printable(report.error)[:1000]}", flags])
        )
    for q in report.questions:
        points = "" if q.points is None else q.points
        yield [notebook, printable(q.grade_id), points, q.max_points,
               q.status, ""]  # fmt: skip
    yield [notebook, TOTAL, report.score, report.max_score, "", flags]


def update_csv(path, reports):
    """Write the reports' rows into the CSV at ``path``, replacing old ones.

    Rows of notebooks that are not in ``reports`` are kept; the rows of a
    notebook graded again are replaced, in place of appending. The file is
    written to a temporary file first and then renamed, so an interrupted
    run leaves the old file whole.

    Parameters
    ----------
    path : str or path-like
        The CSV file, created if missing; its columns are ``CSV_COLUMNS``.
    reports : list of GradeReport
        One row per question of each report, then a total row.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Without nbgrader"
    (the grades CSV).

    Examples
    --------
    >>> import csv, tempfile
    >>> from pathlib import Path
    >>> from svmbook_classroom.records import update_csv
    >>> from svmbook_classroom import GradeReport, QuestionGrade
    >>> reports = [
    ...     GradeReport("alice.ipynb", questions=[
    ...         QuestionGrade("test_x", 1.0, 1.0, "passed")]),
    ...     GradeReport("bob.ipynb", questions=[
    ...         QuestionGrade("test_x", 0.0, 1.0, "failed", "Error")]),
    ... ]
    >>> path = Path(tempfile.mkdtemp()) / "grades.csv"
    >>> update_csv(path, reports)
    >>> update_csv(path, reports[1:])  # bob graded again: replaced
    >>> rows = list(csv.DictReader(path.open()))
    >>> [(row["notebook"], row["question"], row["points"]) for row in rows]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('alice.ipynb', 'test_x', '1.0'),
     ('alice.ipynb', 'TOTAL (autograded)', '1.0'),
     ('bob.ipynb', 'test_x', '0.0'),
     ('bob.ipynb', 'TOTAL (autograded)', '0.0')]
    """
    path = Path(path)
    graded = {printable(report.notebook) for report in reports}
    kept = []
    if path.exists():
        with path.open(newline="") as handle:
            kept = [
                [row.get(column, "") for column in CSV_COLUMNS]
                for row in csv.DictReader(handle)
                if row.get("notebook") not in graded
            ]
    rows = kept + [row for report in reports for row in _rows(report)]
    handle, temporary = tempfile.mkstemp(dir=path.parent or ".",
                                         suffix=".csv")  # fmt: skip
    with os.fdopen(handle, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        writer.writerows(rows)
    os.replace(temporary, path)


def class_summary(reports):
    """Summarise the class per question: graded, mean points, full marks.

    Parameters
    ----------
    reports : list of GradeReport
        The graded submissions of one notebook.

    Returns
    -------
    list of dict
        One dict per question, in notebook order, with keys ``question``,
        ``max_points``, ``graded``, ``mean_points``, ``full_marks`` (a
        fraction) and ``flagged`` (submissions with flags), then one for
        the total. Manually graded answers are left out.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Without nbgrader"
    (the class summary).

    Examples
    --------
    >>> from svmbook_classroom.records import class_summary
    >>> from svmbook_classroom import GradeReport, QuestionGrade
    >>> reports = [
    ...     GradeReport("alice.ipynb", questions=[
    ...         QuestionGrade("test_x", 1.0, 1.0, "passed")]),
    ...     GradeReport("bob.ipynb", questions=[
    ...         QuestionGrade("test_x", 0.0, 1.0, "failed", "Error")]),
    ... ]
    >>> first, total = class_summary(reports)
    >>> first["question"], first["mean_points"], first["full_marks"]
    ('test_x', 0.5, 0.5)
    >>> total["question"], total["graded"], total["flagged"]
    ('TOTAL (autograded)', 2, 0)
    """
    rows, order = {}, []
    for report in reports:
        for q in report.questions:
            if q.points is None:
                continue
            if q.grade_id not in rows:
                order.append(q.grade_id)
                rows[q.grade_id] = (q.max_points, [])
            rows[q.grade_id][1].append(q.points)
    summary = [
        {
            "question": name,
            "max_points": rows[name][0],
            "graded": len(rows[name][1]),
            "mean_points": statistics.fmean(rows[name][1]),
            "full_marks": sum(p == rows[name][0] for p in rows[name][1])
            / len(rows[name][1]),
        }
        for name in order
    ]
    if reports:
        totals = [report.score for report in reports]
        best = max(report.max_score for report in reports)
        summary.append(
            {
                "question": TOTAL,
                "max_points": best,
                "graded": len(totals),
                "mean_points": statistics.fmean(totals),
                "full_marks": sum(t == best for t in totals) / len(totals),
                "flagged": sum(bool(r.flags) for r in reports),
            }
        )
    return summary


def summary_text(summary):
    """Return the class summary as a plain-text table."""
    width = max([len("question")] + [len(s["question"]) for s in summary])
    lines = [f"  {'question':<{width}}  {'graded':>6}  {'mean':>13}  "
             "full marks"]  # fmt: skip
    for s in summary:
        mean = f"{s['mean_points']:.2f} / {s['max_points']:g}"
        lines.append(
            f"  {s['question']:<{width}}  {s['graded']:>6}  {mean:>13}  "
            f"{s['full_marks']:.0%}"
        )
    flagged = summary[-1].get("flagged", 0) if summary else 0
    lines.append(f"  submissions flagged for review: {flagged}")
    return "\n".join(["Class summary", *lines])
