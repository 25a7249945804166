"""What grading leaves behind: feedback per student, a CSV, a class summary.

* :func:`feedback_notebook` is what a student gets back: their notebook as
  it ran, a table of points at the top, and the test cells as the student
  edition shows them (the hidden tests removed, as nbgrader's
  ``generate_feedback`` does, and an error inside a hidden test reported
  without its code).
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

__all__ = ["class_summary", "feedback_notebook", "update_csv"]

#: Columns of the grades CSV.
CSV_COLUMNS = ("notebook", "question", "points", "max_points", "status",
               "flags")  # fmt: skip
#: The question name of the row holding a notebook's total.
TOTAL = "TOTAL (autograded)"

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_MARKED_LINE = re.compile(r"^-+> *(\d+)", re.M)
_HIDDEN = "### BEGIN HIDDEN TESTS"


def _visible_lines(source):
    """How many lines of a test cell come before its hidden tests."""
    lines = source.splitlines()
    return next(
        (k for k, line in enumerate(lines) if line.strip() == _HIDDEN),
        len(lines),
    )


def _student_error(output, visible):
    """Return a test cell's error output without the hidden tests' code."""
    marked = _MARKED_LINE.findall(_ANSI.sub("", "\n".join(output.traceback)))
    line = int(marked[-1]) if marked else None
    if line is not None and line <= visible:
        where = f"line {line} of the test cell"
    else:
        where = "a hidden test"
    text = f"{output.ename} in {where}"
    if output.evalue and where != "a hidden test":
        text += f": {output.evalue}"
    return new_output(
        "error", ename=output.ename, evalue=text, traceback=[text]
    )


def _points_table(report):
    rows = [
        "| question | points | status |",
        "|---|---|---|",
    ]
    for q in report.questions:
        earned = "to be graded" if q.points is None else f"{q.points:g}"
        rows.append(f"| `{q.grade_id}` | {earned} / {q.max_points:g} | "
                    f"{q.status} |")  # fmt: skip
    total = f"{report.score:g} / {report.max_score:g}"
    return "\n".join(
        [f"**Autograded total: {total}**", "", *rows]
    )  # fmt: skip


def feedback_notebook(report):
    """Return the notebook a student gets back (hidden tests removed).

    Parameters
    ----------
    report : GradeReport
        With its ``executed_notebook``.

    Returns
    -------
    nbformat.NotebookNode
        A copy of the notebook as it ran, with a table of points first;
        every test cell shows only its visible asserts and, as output, only
        its error, if any (an error raised in a hidden test says so without
        showing the test).

    References
    ----------
    ``nbgrader generate_feedback``, Project Jupyter et al. (2019), "nbgrader: a
    tool for creating and grading assignments in the Jupyter Notebook",
    *Journal of Open Source Education* 2(11), 32; the book's page for
    instructors (``instructors.md``), "Without nbgrader".

    Examples
    --------
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmlib.teaching import GradeReport, QuestionGrade
    >>> from svmlib.teaching.records import feedback_notebook
    >>> report = GradeReport("a.ipynb", questions=[
    ...     QuestionGrade("test_x", 1.0, 1.0, "passed")])
    >>> report.executed_notebook = new_notebook(cells=[new_code_cell("x = 4")])
    >>> nb = feedback_notebook(report)
    >>> len(nb.cells), nb.cells[0].cell_type, nb.cells[1].source
    (2, 'markdown', 'x = 4')
    """
    nb = copy.deepcopy(report.executed_notebook)
    for cell in nb.cells:
        if cell.cell_type != "code" or not is_grade(cell) or is_solution(cell):
            continue
        visible = _visible_lines(cell.source)
        # errors only, without the hidden code: whatever else a test cell
        # printed (a student's thread, say) could quote the hidden tests
        cell.outputs = [
            _student_error(o, visible)
            for o in cell.outputs
            if o.output_type == "error"
        ]
    nb, _ = ClearHiddenTests().preprocess(nb, {})
    nb.cells.insert(0, new_markdown_cell(_points_table(report)))
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
    flags = "; ".join(report.flags)
    for q in report.questions:
        points = "" if q.points is None else q.points
        yield [report.notebook, q.grade_id, points, q.max_points, q.status,
               ""]  # fmt: skip
    yield [report.notebook, TOTAL, report.score, report.max_score, "", flags]


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
    >>> from svmlib.teaching.records import update_csv
    >>> from svmlib.teaching import GradeReport, QuestionGrade
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
    graded = {report.notebook for report in reports}
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
    >>> from svmlib.teaching.records import class_summary
    >>> from svmlib.teaching import GradeReport, QuestionGrade
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
