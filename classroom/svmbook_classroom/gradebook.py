"""Records for a course: students, assignments, hand grades, late rules.

The grades CSV that ``grade --csv`` keeps has one row per question of
each notebook, named by its path. In nbgrader's layout,
``submitted/<student_id>/<assignment>/<notebook>.ipynb``, that path names
the student and the assignment; this module reads them from it and builds
what a course needs from the grades CSV, which it never changes:

* :func:`read_records` turns the grades CSV into one :class:`Submission`
  per notebook, with its student ID and assignment;
  :func:`write_records` writes them as a *course records* CSV, the same
  rows with the columns ``student_id`` and ``assignment`` in front;
* :func:`merge_hand_grades` puts the points an instructor gave to the
  written answers (a CSV of ``student_id, assignment, question, points``)
  into the records, after checking every line;
* :class:`LateRule` takes points off a late submission: a deadline and a
  penalty per started day, the submission time read from the
  ``timestamp.txt`` that nbgrader writes in each submission folder;
* :func:`build_gradebook` gives one total per student and assignment, and
  :func:`write_canvas` and :func:`write_moodle` write it in the import
  format of the Canvas and the Moodle gradebook: one row per student, one
  column per assignment;
* :func:`class_summaries` summarises the class per assignment, so that
  grading two assignments in one run never adds their points together.

The command-line subcommands (``merge-hand-grades``, ``export-gradebook``,
``class-summaries``) are added by :func:`add_gradebook_commands`.
"""

import argparse
import csv
import math
import os
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path, PurePath

from dateutil import parser as dateparser
from dateutil.tz import gettz

from .grading import printable
from .records import CSV_COLUMNS, TOTAL, class_summary

__all__ = [
    "CANVAS_STUDENT_COLUMNS",
    "Gradebook",
    "LateRule",
    "QuestionRecord",
    "RECORD_COLUMNS",
    "Submission",
    "add_gradebook_commands",
    "build_gradebook",
    "class_summaries",
    "merge_hand_grades",
    "read_records",
    "submission_of",
    "submission_time",
    "summaries_by_assignment",
    "write_canvas",
    "write_moodle",
    "write_records",
]

#: Columns of the course records CSV: the grades CSV's columns after the
#: student ID and the assignment.
RECORD_COLUMNS = ("student_id", "assignment", *CSV_COLUMNS)
#: Columns a CSV of hand grades must have (others, a comment, are ignored).
HAND_COLUMNS = ("student_id", "assignment", "question", "points")
#: The folder of nbgrader's layout whose sub-folders are the student IDs.
SUBMITTED = "submitted"
#: The file in a submission's folder that holds its submission time.
TIMESTAMP_FILE = "timestamp.txt"
#: The student columns of a Canvas gradebook CSV, in the order in which
#: Canvas's importer recognises them (``SIS User ID`` must be followed by
#: ``SIS Login ID``, and ``Section`` must close them).
CANVAS_STUDENT_COLUMNS = (
    "Student",
    "ID",
    "SIS User ID",
    "SIS Login ID",
    "Section",
)
#: The first cell of the row of a Canvas CSV that holds each assignment's
#: points possible.
CANVAS_POINTS_POSSIBLE = "Points Possible"
# Headers Canvas's importer reserves or strips as non-assignment columns
# (GradebookImporter's GRADEBOOK_IMPORTER_RESERVED_NAMES and
# NON_ASSIGNMENT_COLUMN_HEADERS, matched as substrings).
_CANVAS_NOT_ASSIGNMENTS = (
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
)
_CANVAS_RESERVED = (
    "Student",
    "LastName",
    "FirstName",
    "ID",
    "SIS User ID",
    "SIS Login ID",
    "Section",
    "Integration ID",
    "Root Account",
)
#: How many problems an error message lists before it says how many more.
MAX_PROBLEMS = 20
#: What ``incomplete`` may say about a total that is not final.
INCOMPLETE = ("error", "zero", "blank")
#: The status of a written answer whose points were merged from hand grades.
HAND_GRADED = "hand-graded"


def _problems(what, problems):
    """Return one ValueError listing at most MAX_PROBLEMS problems."""
    lines = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        lines.append(f"... and {len(problems) - MAX_PROBLEMS} more")
    return ValueError(f"{what}:\n  " + "\n  ".join(lines))


def submission_of(notebook, root=None):
    """Return the student ID and the assignment a notebook's path names.

    Parameters
    ----------
    notebook : str or path-like
        The path of a submitted notebook, as the grader was given it.
    root : str or path-like, optional
        The folder whose sub-folders are the students' (nbgrader's
        ``submitted/``). By default the last component of the path named
        ``submitted``.

    Returns
    -------
    student_id : str
        The folder below ``root``.
    assignment : str
        The folder below the student's (nbgrader's
        ``submitted/<student_id>/<assignment>/<notebook>.ipynb``), or, for
        ``submitted/<student_id>/<notebook>.ipynb``, the notebook's name
        without ``.ipynb``.

    Raises
    ------
    ValueError
        If the path is not below ``root`` (or has no ``submitted``
        component), or is not one of the two layouts above.

    References
    ----------
    nbgrader's course folder, ``submitted/{student_id}/{assignment_id}/
    {notebook_id}.ipynb`` (``CourseDirectory.directory_structure``,
    Project Jupyter et al. (2019), *Journal of Open Source Education*
    2(11), 32).

    Examples
    --------
    >>> submission_of("course/submitted/alice/03_smo/03_smo.ipynb")
    ('alice', '03_smo')
    >>> submission_of("submitted/bob/06_em_gmm.ipynb")
    ('bob', '06_em_gmm')
    >>> submission_of("alice/03_smo.ipynb", root=".")
    ('alice', '03_smo')
    """
    if root is not None:
        try:
            parts = (
                Path(os.path.abspath(notebook))
                .relative_to(os.path.abspath(root))
                .parts
            )
        except ValueError:
            raise ValueError(
                f"notebook {printable(notebook)!r} is not below the root "
                f"{printable(root)!r}"
            ) from None
    else:
        parts = PurePath(notebook).parts
        if SUBMITTED not in parts:
            raise ValueError(
                f"notebook {printable(notebook)!r} is not in a "
                f"'{SUBMITTED}' folder: give the root folder of the "
                "students' folders"
            )
        last = len(parts) - 1 - parts[::-1].index(SUBMITTED)
        parts = parts[last + 1 :]
    if len(parts) not in (2, 3) or not parts[-1].endswith(".ipynb"):
        raise ValueError(
            f"notebook {printable(notebook)!r} is not laid out as "
            "<student_id>/<assignment>/<notebook>.ipynb or "
            "<student_id>/<notebook>.ipynb below the root"
        )
    if len(parts) == 3:
        return parts[0], parts[1]
    return parts[0], PurePath(parts[1]).stem


@dataclass
class QuestionRecord:
    """The points of one question of one submitted notebook.

    Attributes
    ----------
    question : str
        The cell's ``grade_id``.
    points : float or None
        Points given; None for a written answer not graded yet.
    max_points : float
        What the question is worth.
    status : str
        The grader's status (``"passed"``, ``"manual"``, ...), or
        ``"hand-graded"`` once hand grades are merged.
    """

    question: str
    points: object
    max_points: float
    status: str


@dataclass
class Submission:
    """One submitted notebook of one student, as the course records hold it.

    Attributes
    ----------
    student_id : str
        From the notebook's path (:func:`submission_of`).
    assignment : str
        From the notebook's path.
    notebook : str
        The path the grader was given.
    questions : list of QuestionRecord
        In notebook order.
    flags : str
        The flags of the grader's total row (``ERROR: ...`` when the
        notebook could not be graded).
    """

    student_id: str
    assignment: str
    notebook: str
    questions: list = field(default_factory=list)
    flags: str = ""

    @property
    def points(self):
        """Points given so far (written answers not graded count 0)."""
        return sum(q.points for q in self.questions if q.points is not None)

    @property
    def max_points(self):
        """Points the notebook is worth, written answers included."""
        return sum(q.max_points for q in self.questions)

    @property
    def ungraded(self):
        """The questions whose points are still to be given by hand."""
        return [q.question for q in self.questions if q.points is None]

    @property
    def failed(self):
        """Whether the grader could not grade the notebook."""
        return self.flags.startswith("ERROR:")


def _number(text, what):
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise ValueError(
            f"{what}: {printable(text)!r} is not a number"
        ) from None
    if not math.isfinite(value):
        raise ValueError(f"{what}: {printable(text)!r} is not finite")
    return value


def read_records(path, root=None):
    r"""Read a grades CSV, or a course records CSV, into submissions.

    Parameters
    ----------
    path : str or path-like
        A CSV with the columns of the grades CSV that ``grade --csv``
        writes (``notebook, question, points, max_points, status,
        flags``: the student ID and the assignment are read from each
        notebook's path), or a course records CSV (:data:`RECORD_COLUMNS`:
        they are read from its columns).
    root : str or path-like, optional
        Passed to :func:`submission_of`.

    Returns
    -------
    list of Submission
        One per notebook, in the order of the file.

    Raises
    ------
    ValueError
        If a column is missing, a number does not parse, or a path does
        not name a student (every such line is listed).

    References
    ----------
    The book's page for instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "grades.csv"
    >>> _ = path.write_text(
    ...     "notebook,question,points,max_points,status,flags\n"
    ...     "submitted/alice/03_smo/03_smo.ipynb,test_bounds,3,3,passed,\n"
    ...     "submitted/alice/03_smo/03_smo.ipynb,why,,2,manual,\n"
    ...     "submitted/alice/03_smo/03_smo.ipynb,TOTAL (autograded),3,3,,\n")
    >>> [record] = read_records(path)
    >>> record.student_id, record.assignment, record.points, record.ungraded
    ('alice', '03_smo', 3.0, ['why'])
    """
    with Path(path).open(newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [c for c in CSV_COLUMNS if c not in header]
        if missing:
            raise ValueError(
                f"{printable(path)}: missing column(s) {', '.join(missing)}"
            )
        named = "student_id" in header and "assignment" in header
        submissions, problems = {}, []
        for line, row in enumerate(reader, start=2):
            notebook = row["notebook"]
            try:
                if named:
                    student, assignment = row["student_id"], row["assignment"]
                    if not student or not assignment:
                        raise ValueError("empty student_id or assignment")
                else:
                    student, assignment = submission_of(notebook, root)
                record = submissions.setdefault(
                    notebook, Submission(student, assignment, notebook)
                )
                if row["question"] == TOTAL:
                    record.flags = row["flags"] or ""
                    continue
                points = row["points"]
                record.questions.append(
                    QuestionRecord(
                        row["question"],
                        None if points == "" else _number(points, "points"),
                        _number(row["max_points"], "max_points"),
                        row["status"],
                    )
                )
            except ValueError as error:
                problems.append(f"line {line}: {error}")
    if problems:
        raise _problems(f"cannot read {printable(path)}", problems)
    return list(submissions.values())


def _atomic_csv(path, rows):
    """Write rows to a temporary file beside ``path``, then rename it."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".csv")
    try:
        with os.fdopen(handle, "w", newline="") as out:
            csv.writer(out).writerows(rows)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _points_text(points):
    """Points as the gradebooks show them: at most two decimals."""
    if points is None:
        return ""
    text = f"{points:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def write_records(path, submissions):
    """Write submissions as a course records CSV (:data:`RECORD_COLUMNS`).

    Parameters
    ----------
    path : str or path-like
        The file, replaced whole (written to a temporary file first).
    submissions : list of Submission
        One row per question, then a ``TOTAL (autograded)`` row per
        notebook with its flags, as in the grades CSV.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> import csv, tempfile
    >>> from pathlib import Path
    >>> record = Submission("alice", "03_smo", "a.ipynb",
    ...                     [QuestionRecord("why", 1.5, 2.0, "hand-graded")])
    >>> path = Path(tempfile.mkdtemp()) / "records.csv"
    >>> write_records(path, [record])
    >>> rows = list(csv.DictReader(path.open()))
    >>> [(r["student_id"], r["question"], r["points"]) for r in rows]
    [('alice', 'why', '1.5'), ('alice', 'TOTAL (autograded)', '0')]
    """
    rows = [RECORD_COLUMNS]
    for record in submissions:
        ids = [
            printable(record.student_id),
            printable(record.assignment),
            printable(record.notebook),
        ]
        auto = [
            q
            for q in record.questions
            if q.status not in ("manual", HAND_GRADED)
        ]
        for q in record.questions:
            rows.append(
                [
                    *ids,
                    printable(q.question),
                    _points_text(q.points),
                    _points_text(q.max_points),
                    q.status,
                    "",
                ]
            )
        rows.append(
            [
                *ids,
                TOTAL,
                _points_text(sum(q.points or 0 for q in auto)),
                _points_text(sum(q.max_points for q in auto)),
                "",
                record.flags,
            ]
        )
    _atomic_csv(path, rows)


def merge_hand_grades(submissions, hand_grades):
    r"""Put the points of hand-graded written answers into the records.

    Every line is checked before anything is merged: a student without a
    submission of that assignment, a question that is not a written
    answer of it, points that are not a number, negative or above the
    question's maximum, and a question graded twice are errors, all
    reported at once with their line numbers.

    Parameters
    ----------
    submissions : list of Submission
        The records (:func:`read_records`); not changed.
    hand_grades : str or path-like
        A CSV with the columns ``student_id, assignment, question,
        points`` (``HAND_COLUMNS``; other columns are ignored), one
        line per written answer graded.

    Returns
    -------
    list of Submission
        Copies of the records with the written answers' points given and
        their status ``"hand-graded"``.

    Raises
    ------
    ValueError
        Listing every line that is wrong, or the missing columns.

    References
    ----------
    nbgrader's manual grading of written answers (``formgrader``), whose
    points nbgrader adds to the autograded ones; the book's page for
    instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> records = [Submission("alice", "03_smo", "a.ipynb", [
    ...     QuestionRecord("test_x", 3.0, 3.0, "passed"),
    ...     QuestionRecord("why", None, 2.0, "manual")])]
    >>> hand = Path(tempfile.mkdtemp()) / "hand.csv"
    >>> _ = hand.write_text("student_id,assignment,question,points\n"
    ...                     "alice,03_smo,why,1.5\n")
    >>> [merged] = merge_hand_grades(records, hand)
    >>> merged.points, merged.max_points, merged.ungraded
    (4.5, 5.0, [])
    >>> _ = hand.write_text("student_id,assignment,question,points\n"
    ...                     "alice,03_smo,why,2.5\n")
    >>> merge_hand_grades(records, hand)
    Traceback (most recent call last):
    ...
    ValueError: hand grades ...:
      line 2: 2.5 points for why of 03_smo, which is worth 2
    """
    merged = [
        replace(r, questions=[replace(q) for q in r.questions])
        for r in submissions
    ]
    written = {}
    for record in merged:
        for q in record.questions:
            if q.status in ("manual", HAND_GRADED):
                key = (record.student_id, record.assignment, q.question)
                written.setdefault(key, []).append(q)
    students = {(r.student_id, r.assignment) for r in merged}
    assignments = {r.assignment for r in merged}
    questions = {}
    for _, assignment, question in written:
        questions.setdefault(assignment, set()).add(question)
    problems, given = [], {}
    with Path(hand_grades).open(newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [
            c for c in HAND_COLUMNS if c not in (reader.fieldnames or [])
        ]
        if missing:
            raise ValueError(
                f"hand grades {printable(hand_grades)}: missing column(s) "
                f"{', '.join(missing)}"
            )
        for line, row in enumerate(reader, start=2):
            student, assignment = row["student_id"], row["assignment"]
            question = row["question"]
            name = f"{printable(question)} of {printable(assignment)}"
            key = (student, assignment, question)
            if assignment not in assignments:
                problems.append(
                    f"line {line}: unknown assignment "
                    f"{printable(assignment)!r}"
                )
                continue
            if (student, assignment) not in students:
                problems.append(
                    f"line {line}: no submission of {printable(assignment)} "
                    f"by student {printable(student)!r}"
                )
                continue
            if key not in written:
                known = (
                    ", ".join(sorted(questions.get(assignment, ()))) or "none"
                )
                problems.append(
                    f"line {line}: {printable(question)!r} is not a written "
                    f"answer of {printable(assignment)} (those are: {known})"
                )
                continue
            try:
                points = _number(row["points"], f"points for {name}")
            except ValueError as error:
                problems.append(f"line {line}: {error}")
                continue
            if len(written[key]) > 1:
                problems.append(
                    f"line {line}: {name} is a written answer in two "
                    f"notebooks of {printable(student)}: cannot tell which"
                )
                continue
            q = written[key][0]
            if points < 0 or points > q.max_points:
                problems.append(
                    f"line {line}: {_points_text(points)} points for {name}, "
                    f"which is worth {_points_text(q.max_points)}"
                )
                continue
            if key in given:
                problems.append(
                    f"line {line}: {name} of {printable(student)} is already "
                    f"graded on line {given[key]}"
                )
                continue
            given[key] = line
            q.points, q.status = points, HAND_GRADED
    if problems:
        raise _problems(f"hand grades {printable(hand_grades)}", problems)
    return merged


def _parse_deadline(text):
    try:
        # dateutil's, not datetime.fromisoformat: Python 3.10 reads no "Z"
        when = dateparser.isoparse(text)
    except (ValueError, OverflowError):
        raise ValueError(
            f"deadline {printable(text)!r} is not an ISO 8601 time "
            "(2026-11-20T23:59+01:00)"
        ) from None
    return when


@dataclass(frozen=True)
class LateRule:
    """A deadline and a penalty per started day past it.

    A submission ``t`` after the deadline is ``ceil((t - deadline) / 1
    day)`` days late (one second late is one day); each day costs
    ``penalty`` points, or, with ``unit="fraction"``, ``penalty`` times
    the points the assignment is worth (as Canvas's late policy deducts
    a percentage of the points possible per day). A total never goes
    below zero.

    Parameters
    ----------
    deadline : datetime.datetime or str
        With its time zone (an ISO 8601 string such as
        ``"2026-11-20T23:59+01:00"`` is parsed).
    penalty : float
        Per day late: a fraction in [0, 1], or points (>= 0).
    unit : {"fraction", "points"}, default="fraction"
        What ``penalty`` is.

    Attributes
    ----------
    deadline : datetime.datetime
        The deadline, with its time zone.
    penalty : float
        Per day late.
    unit : str
        ``"fraction"`` or ``"points"``.

    Raises
    ------
    ValueError
        If the deadline has no time zone or does not parse, the penalty
        is negative, not finite, or a fraction above 1, or the unit is
        neither.

    References
    ----------
    The submission time is nbgrader's: the ``timestamp.txt`` it writes in
    each submission folder (:func:`submission_time`, read as
    ``CourseDirectory.get_existing_timestamp`` reads it); nbgrader's
    own late-submission plugin computes seconds late against the due
    date, as here. Canvas Instructor Guide, "How do I apply a Late
    Submission policy in the Gradebook?": a percentage of the points
    possible deducted per day, a started day counted whole (1.3 days late
    is 2); Canvas's "lowest possible grade" floor is not modelled (the
    floor here is zero).

    Examples
    --------
    >>> from datetime import datetime, timezone
    >>> rule = LateRule("2026-11-20T23:59:00+00:00", 0.1)
    >>> rule.days_late(datetime(2026, 11, 21, 0, 30, tzinfo=timezone.utc))
    1
    >>> rule.penalty_for(2, max_points=20.0)
    4.0
    >>> LateRule("2026-11-20T23:59:00+00:00", 2, unit="points").penalty_for(
    ...     3, max_points=20.0)
    6.0
    """

    deadline: object
    penalty: float
    unit: str = "fraction"

    def __post_init__(self):
        """Check and normalise the fields (a deadline string is parsed)."""
        deadline = self.deadline
        if isinstance(deadline, str):
            deadline = _parse_deadline(deadline)
        if not isinstance(deadline, datetime):
            raise ValueError(
                f"deadline must be a datetime, got {type(deadline).__name__}"
            )
        if deadline.tzinfo is None or deadline.utcoffset() is None:
            raise ValueError(
                f"deadline {deadline.isoformat()} has no time zone: give it "
                "as 2026-11-20T23:59+01:00 (or Z for UTC)"
            )
        object.__setattr__(self, "deadline", deadline)
        if self.unit not in ("fraction", "points"):
            raise ValueError(
                f"unit must be 'fraction' or 'points', got {self.unit!r}"
            )
        try:
            penalty = float(self.penalty)
        except (TypeError, ValueError):
            raise ValueError(
                f"penalty must be a number, got {self.penalty!r}"
            ) from None
        if not math.isfinite(penalty) or penalty < 0:
            raise ValueError(f"penalty must be >= 0, got {self.penalty!r}")
        if self.unit == "fraction" and penalty > 1:
            raise ValueError(
                f"penalty is a fraction of the points per day: at most 1, "
                f"got {self.penalty!r} (use unit='points' for points)"
            )
        object.__setattr__(self, "penalty", penalty)

    def days_late(self, submitted):
        """Return the started days between the deadline and ``submitted``.

        Parameters
        ----------
        submitted : datetime.datetime
            The submission time, with its time zone.

        Returns
        -------
        int
            0 for a submission on time.

        Raises
        ------
        ValueError
            If ``submitted`` has no time zone.

        References
        ----------
        nbgrader's late-submission plugin, which is given the seconds
        between the due date and the submission time
        (``LateSubmissionPlugin.late_submission_penalty``).

        Examples
        --------
        >>> from datetime import datetime, timezone
        >>> rule = LateRule("2026-11-20T12:00+00:00", 0.1)
        >>> rule.days_late(datetime(2026, 11, 22, 12, tzinfo=timezone.utc))
        2
        """
        if submitted.tzinfo is None or submitted.utcoffset() is None:
            raise ValueError("the submission time has no time zone")
        late = submitted - self.deadline
        if late <= timedelta(0):
            return 0
        return math.ceil(late / timedelta(days=1))

    def penalty_for(self, days, max_points):
        """Return the points a submission ``days`` days late loses.

        Parameters
        ----------
        days : int
            From :meth:`days_late`.
        max_points : float
            What the assignment is worth.

        Returns
        -------
        float
            ``days * penalty`` (points) or ``days * penalty * max_points``
            (fraction); the caller keeps totals at zero or above.

        References
        ----------
        Canvas Instructor Guide, "How do I apply a Late Submission policy
        in the Gradebook?": a percentage of the points possible per day.

        Examples
        --------
        >>> LateRule("2026-11-20T12:00+00:00", 0.25).penalty_for(1, 8.0)
        2.0
        """
        per_day = self.penalty * (
            max_points if self.unit == "fraction" else 1.0
        )
        return days * per_day


def submission_time(notebook, base="."):
    """Return when a notebook was submitted, from nbgrader's timestamp file.

    Parameters
    ----------
    notebook : str or path-like
        The notebook's path as in the records.
    base : str or path-like, default="."
        The folder that path is relative to (where the grader ran).

    Returns
    -------
    datetime.datetime
        In UTC, read from ``timestamp.txt`` in the notebook's folder as
        nbgrader's ``parse_utc`` reads it (``date time zone``, the zone a
        name such as ``UTC`` or ``Europe/Paris``, a time without zone
        taken as UTC), except that a numeric offset (``+0100``) counts in
        hours and minutes: ``parse_utc`` (nbgrader 0.9) reads it as that
        many seconds.

    Raises
    ------
    ValueError
        If the file is missing, empty or does not parse, or its time
        zone is unknown.

    References
    ----------
    nbgrader's exchange writes ``timestamp.txt`` into each submission
    (``ExchangeSubmit``, format ``%Y-%m-%d %H:%M:%S.%f %Z``); ``nbgrader
    collect`` and ``zip_collect`` copy or write it.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp()) / "submitted" / "alice" / "03_smo"
    >>> folder.mkdir(parents=True)
    >>> _ = (folder / "timestamp.txt").write_text(
    ...     "2026-11-21 08:30:00.000000 UTC")
    >>> submission_time(folder / "03_smo.ipynb").isoformat()
    '2026-11-21T08:30:00+00:00'
    """
    path = Path(base) / Path(notebook).parent / TIMESTAMP_FILE
    try:
        text = path.read_text().strip()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(
            f"no submission time for {printable(notebook)}: cannot read "
            f"{printable(path)} ({type(error).__name__})"
        ) from None
    if not text:
        raise ValueError(f"{printable(path)} is empty")
    return _parse_timestamp(text, path)


_OFFSET = re.compile(r"[+-]\d{2}:?\d{2}")


def _parse_timestamp(text, path):
    """Parse a time as nbgrader writes it; return it in UTC (aware)."""
    parts = text.split(" ")
    try:
        if len(parts) == 3 and not _OFFSET.fullmatch(parts[2]):
            zone = gettz(parts[2])
            if zone is None:
                raise ValueError(f"unknown time zone {parts[2]!r}")
            when = dateparser.parse(" ".join(parts[:2]))
            when = when.replace(tzinfo=zone)
        else:
            when = dateparser.parse(text)
    except (ValueError, OverflowError) as error:
        raise ValueError(
            f"{printable(path)}: {printable(text)!r} is not a time ({error})"
        ) from None
    if when.tzinfo is None or when.utcoffset() is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc)


@dataclass
class Gradebook:
    """One total per student and assignment, ready for an LMS.

    Attributes
    ----------
    assignments : list of str
        Sorted.
    points_possible : dict
        Assignment -> the points it is worth (written answers included).
    students : list of str
        Sorted student IDs.
    scores : dict
        ``(student_id, assignment)`` -> total after any late penalty, or
        None for a total left blank; a missing key: no submission.
    late : dict
        ``(student_id, assignment)`` -> ``(days late, points taken off)``
        for every late submission of an assignment with a late rule.
    """

    assignments: list
    points_possible: dict
    students: list
    scores: dict
    late: dict = field(default_factory=dict)


def build_gradebook(
    submissions, late_rules=None, base=".", incomplete="error"
):
    """Total each student's points per assignment, late rules applied.

    Parameters
    ----------
    submissions : list of Submission
        The records, hand grades merged (:func:`merge_hand_grades`).
    late_rules : dict, optional
        Assignment -> :class:`LateRule`. Every submission of such an
        assignment needs its ``timestamp.txt`` (:func:`submission_time`).
    base : str or path-like, default="."
        Where the notebooks' paths start (for the timestamp files).
    incomplete : {"error", "zero", "blank"}, default="error"
        What to do with a total that is not final: a written answer not
        graded yet, or a notebook the grader could not grade. ``"error"``
        refuses (listing them), ``"zero"`` counts what is missing as 0,
        ``"blank"`` leaves the total empty (the gradebook keeps what it
        had: Canvas ignores a blank cell; Moodle reads it as no grade).

    Returns
    -------
    Gradebook

    Raises
    ------
    ValueError
        If ``incomplete`` is not one of the three, a total is not final
        under ``"error"``, or a submission time is missing.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> records = [
    ...     Submission("alice", "03_smo", "a3.ipynb",
    ...                [QuestionRecord("t", 3.0, 4.0, "failed")]),
    ...     Submission("alice", "06_em_gmm", "a6.ipynb",
    ...                [QuestionRecord("t", 5.0, 5.0, "passed")]),
    ...     Submission("bob", "03_smo", "b3.ipynb",
    ...                [QuestionRecord("t", 4.0, 4.0, "passed")]),
    ... ]
    >>> book = build_gradebook(records)
    >>> book.assignments, book.points_possible
    (['03_smo', '06_em_gmm'], {'03_smo': 4.0, '06_em_gmm': 5.0})
    >>> book.scores[("bob", "03_smo")], ("bob", "06_em_gmm") in book.scores
    (4.0, False)
    """
    if incomplete not in INCOMPLETE:
        raise ValueError(
            f"incomplete must be one of {', '.join(INCOMPLETE)}, "
            f"got {incomplete!r}"
        )
    late_rules = dict(late_rules or {})
    groups = {}
    for record in submissions:
        groups.setdefault((record.student_id, record.assignment), []).append(
            record
        )
    possible = {}
    for (_, assignment), records in groups.items():
        worth = sum(r.max_points for r in records)
        possible[assignment] = max(possible.get(assignment, 0.0), worth)
    unknown = sorted(set(late_rules) - set(possible))
    if unknown:
        raise ValueError(
            f"late rule for unknown assignment(s) {', '.join(unknown)} "
            f"(known: {', '.join(sorted(possible))})"
        )
    scores, late, problems = {}, {}, []
    for (student, assignment), records in sorted(groups.items()):
        score = sum(r.points for r in records)
        ungraded = [q for r in records for q in r.ungraded]
        failed = [r.notebook for r in records if r.failed]
        if ungraded or failed:
            what = (
                f"{len(ungraded)} written answer(s) not graded"
                if ungraded
                else "not graded: "
                + next(r.flags for r in records if r.failed)
            )
            if incomplete == "error":
                problems.append(
                    f"{printable(student)}, {printable(assignment)}: "
                    f"{printable(what)[:200]}"
                )
                continue
            if incomplete == "blank":
                scores[(student, assignment)] = None
                continue
        rule = late_rules.get(assignment)
        if rule is not None:
            try:
                when = max(submission_time(r.notebook, base) for r in records)
            except ValueError as error:
                problems.append(str(error))
                continue
            days = rule.days_late(when)
            if days:
                taken = min(
                    score, rule.penalty_for(days, possible[assignment])
                )
                late[(student, assignment)] = (days, taken)
                score -= taken
        scores[(student, assignment)] = score
    if problems:
        raise _problems(
            "the totals are not final (merge the hand grades, or choose "
            "incomplete='zero' or 'blank')"
            if incomplete == "error"
            else "cannot apply the late rules",
            problems,
        )
    return Gradebook(
        assignments=sorted(possible),
        points_possible=possible,
        students=sorted({s for s, _ in groups}),
        scores=scores,
        late=late,
    )


def _read_roster(path, key, needed):
    """Roster rows by the value of their ``key`` column."""
    with Path(path).open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        missing = [
            c for c in (key, *needed) if c not in (reader.fieldnames or [])
        ]
        if missing:
            raise ValueError(
                f"roster {printable(path)}: missing column(s) "
                f"{', '.join(missing)}"
            )
        roster = {}
        for row in reader:
            value = (row.get(key) or "").strip()
            if not value or CANVAS_POINTS_POSSIBLE in (
                row.get("Student") or ""
            ):
                continue  # Canvas's Points Possible row, a test student
            roster[value] = row
    return roster


def _titles(book, titles):
    titles = dict(titles or {})
    unknown = sorted(set(titles) - set(book.assignments))
    if unknown:
        raise ValueError(
            f"title for unknown assignment(s) {', '.join(unknown)}"
        )
    names = [titles.get(a, a) for a in book.assignments]
    if len(set(names)) != len(names):
        raise ValueError(f"two assignments have the same title: {names}")
    return names


def _unmatched(students, roster, what):
    missing = [s for s in students if s not in roster]
    if missing:
        raise _problems(
            f"student(s) graded but not in the roster (by {what})",
            [printable(s) for s in missing],
        )


def write_canvas(path, book, titles=None, roster=None, key="SIS Login ID"):
    """Write a gradebook CSV that Canvas's gradebook import reads.

    The header is ``Student, ID, SIS User ID, SIS Login ID, Section``,
    then one column per assignment; the second row starts with ``Points
    Possible`` and gives each assignment's points (Canvas uses them for an
    assignment the file creates); then one row per student. Canvas finds
    each student by ``ID`` (its own user ID), else ``SIS User ID``, else
    ``SIS Login ID``, else by name; an assignment column is matched by a
    header ``Title (id)`` or by its title, otherwise Canvas creates the
    assignment. A blank cell changes nothing.

    Parameters
    ----------
    path : str or path-like
        The file to write (UTF-8, comma-separated).
    book : Gradebook
        From :func:`build_gradebook`.
    titles : dict, optional
        Assignment -> column header (the title of the Canvas assignment,
        or ``"Title (id)"``); by default the assignment's name.
    roster : str or path-like, optional
        A gradebook CSV exported from the course's Canvas gradebook: the
        five student columns of each student are taken from it, matched
        to the student IDs by the column ``key``; its students without a
        submission get a row of blanks. Without a roster, each row
        carries the student ID in the column ``key`` and the name column,
        the others empty.
    key : {"SIS Login ID", "SIS User ID", "ID"}, default="SIS Login ID"
        The column that holds nbgrader's student ID (on a JupyterHub, the
        login).

    Raises
    ------
    ValueError
        If ``key`` is not one of the three, the roster lacks a column or
        a graded student, or a title is unknown, repeated or one Canvas
        reserves (``Final Score``, ``Section``, ...).

    References
    ----------
    Canvas LMS's gradebook import (``GradebookImporter`` in
    instructure/canvas-lms, ``app/models/gradebook_importer.rb``): the
    header test (``Student``, ``ID``, optional ``SIS User ID`` and ``SIS
    Login ID``, then ``Section``), the ``Points Possible`` row, the
    student and assignment matching; Canvas Instructor Guide, "How do I
    import grades in the Gradebook?".

    Examples
    --------
    >>> import csv, tempfile
    >>> from pathlib import Path
    >>> book = Gradebook(["03_smo"], {"03_smo": 22.0}, ["alice"],
    ...                  {("alice", "03_smo"): 17.5})
    >>> path = Path(tempfile.mkdtemp()) / "canvas.csv"
    >>> write_canvas(path, book)
    >>> for row in csv.reader(path.open()):
    ...     print(row)
    ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', '03_smo']
    ['Points Possible', '', '', '', '', '22']
    ['alice', '', '', 'alice', '', '17.5']
    """
    if key not in ("SIS Login ID", "SIS User ID", "ID"):
        raise ValueError(
            f"key must be 'SIS Login ID', 'SIS User ID' or 'ID', got {key!r}"
        )
    names = _titles(book, titles)
    for name in names:
        if name in _CANVAS_RESERVED or any(
            word in name for word in _CANVAS_NOT_ASSIGNMENTS
        ):
            raise ValueError(
                f"title {name!r} is a column Canvas's import reserves or "
                "skips: choose another title"
            )
    if roster is not None:
        people = _read_roster(roster, key, CANVAS_STUDENT_COLUMNS)
        _unmatched(book.students, people, key)
    else:
        people = {
            s: {
                "Student": s,
                "ID": "",
                "SIS User ID": "",
                "SIS Login ID": "",
                "Section": "",
                key: s,
            }
            for s in book.students
        }
    rows = [
        [*CANVAS_STUDENT_COLUMNS, *names],
        [
            CANVAS_POINTS_POSSIBLE,
            "",
            "",
            "",
            "",
            *(_points_text(book.points_possible[a]) for a in book.assignments),
        ],
    ]
    for student, person in sorted(people.items()):
        rows.append(
            [
                *(
                    printable(person.get(c) or "")
                    for c in CANVAS_STUDENT_COLUMNS
                ),
                *(
                    _points_text(book.scores.get((student, a)))
                    for a in book.assignments
                ),
            ]
        )
    _atomic_csv(path, rows)


def write_moodle(
    path, book, titles=None, identifier="Username", roster=None, key="Username"
):
    """Write a gradebook CSV that Moodle's CSV grade import reads.

    The header is the identifier column, then one column per assignment
    (grade item); one row per graded student. On import, map the
    identifier column to the matching user field (``Username`` to
    username, ``Email address`` to email address, ``ID number`` to ID
    number) and each assignment column to its grade item, or to a new
    grade item. A blank cell is "no grade" for Moodle.

    Parameters
    ----------
    path : str or path-like
        The file to write (UTF-8, comma-separated).
    book : Gradebook
        From :func:`build_gradebook`.
    titles : dict, optional
        Assignment -> column header; by default the assignment's name.
    identifier : str, default="Username"
        The header of the identifier column.
    roster : str or path-like, optional
        A CSV with the columns ``key`` (the student ID) and
        ``identifier`` (for example a Moodle export's ``Email address``
        beside a ``Username`` column): the identifier of each student is
        taken from it. Without a roster, the identifier is the student ID.
    key : str, default="Username"
        The roster's column that holds the student IDs.

    Raises
    ------
    ValueError
        If the roster lacks a column, a graded student, or gives a
        student an empty identifier (Moodle stops the whole import at a
        row whose user it cannot find), or a title is unknown or
        repeated.

    References
    ----------
    MoodleDocs, "Grade import" (CSV import: map from a column to the user
    field, then each column to a grade item); Moodle's
    ``gradeimport_csv_load_data::map_user_data_with_value`` and
    ``prepare_import_grade_data`` (moodle/moodle,
    ``grade/import/csv/classes/load_data.php``): users by ``userid``,
    ``useridnumber``, ``useremail`` or ``username``; ``''`` or ``'-'`` is
    no grade; a row whose user is not found aborts the import.

    Examples
    --------
    >>> import csv, tempfile
    >>> from pathlib import Path
    >>> book = Gradebook(["03_smo", "06_em_gmm"],
    ...                  {"03_smo": 22.0, "06_em_gmm": 20.0}, ["alice"],
    ...                  {("alice", "03_smo"): 17.5})
    >>> path = Path(tempfile.mkdtemp()) / "moodle.csv"
    >>> write_moodle(path, book)
    >>> for row in csv.reader(path.open()):
    ...     print(row)
    ['Username', '03_smo', '06_em_gmm']
    ['alice', '17.5', '']
    """
    names = _titles(book, titles)
    if identifier in names:
        raise ValueError(f"title {identifier!r} is the identifier column")
    if roster is not None:
        people = _read_roster(roster, key, (identifier,))
        _unmatched(book.students, people, key)
        ids = {
            s: (people[s].get(identifier) or "").strip() for s in book.students
        }
        empty = [printable(s) for s, value in ids.items() if not value]
        if empty:
            raise _problems(f"no {identifier} in the roster for", empty)
    else:
        ids = {s: s for s in book.students}
    rows = [[identifier, *names]]
    for student in book.students:
        rows.append(
            [
                printable(ids[student]),
                *(
                    _points_text(book.scores.get((student, a)))
                    for a in book.assignments
                ),
            ]
        )
    _atomic_csv(path, rows)


#: Columns of :func:`class_summaries`'s rows (and of its CSV).
SUMMARY_COLUMNS = (
    "assignment",
    "question",
    "max_points",
    "graded",
    "mean_points",
    "full_marks",
    "flagged",
    "ungraded",
)


def class_summaries(submissions):
    """Summarise the class per assignment: each question, then the total.

    Parameters
    ----------
    submissions : list of Submission
        Any number of assignments.

    Returns
    -------
    list of dict
        With keys ``SUMMARY_COLUMNS``. For each assignment (sorted),
        one dict per question in notebook order (``graded``: answers with
        points; ``mean_points`` and ``full_marks``, a fraction, over
        those), then one whose question is ``"TOTAL"``: ``graded`` counts
        the students, ``mean_points`` is their mean total so far out of
        ``max_points`` (written answers included), ``flagged`` the
        students with a flagged or failed notebook, ``ungraded`` the
        written answers still to grade. No total adds two assignments.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> records = [
    ...     Submission("alice", "03_smo", "a3.ipynb",
    ...                [QuestionRecord("t", 3.0, 4.0, "failed")]),
    ...     Submission("bob", "03_smo", "b3.ipynb",
    ...                [QuestionRecord("t", 4.0, 4.0, "passed")]),
    ...     Submission("alice", "06_em_gmm", "a6.ipynb",
    ...                [QuestionRecord("q", None, 5.0, "manual")]),
    ... ]
    >>> for row in class_summaries(records):
    ...     print(row["assignment"], row["question"], row["max_points"],
    ...           row["graded"], row["mean_points"], row["ungraded"])
    03_smo t 4.0 2 3.5 0
    03_smo TOTAL 4.0 2 3.5 0
    06_em_gmm q 5.0 0 None 1
    06_em_gmm TOTAL 5.0 1 0.0 1
    """
    by_assignment = {}
    for record in submissions:
        by_assignment.setdefault(record.assignment, []).append(record)
    summary = []
    for assignment in sorted(by_assignment):
        records = by_assignment[assignment]
        questions, order = {}, []
        for record in records:
            for q in record.questions:
                if q.question not in questions:
                    order.append(q.question)
                    questions[q.question] = (q.max_points, [], [0])
                if q.points is None:
                    questions[q.question][2][0] += 1
                else:
                    questions[q.question][1].append(q.points)
        for name in order:
            worth, points, ungraded = questions[name]
            summary.append(
                {
                    "assignment": assignment,
                    "question": name,
                    "max_points": worth,
                    "graded": len(points),
                    "mean_points": statistics.fmean(points)
                    if points
                    else None,
                    "full_marks": (
                        sum(p == worth for p in points) / len(points)
                        if points
                        else None
                    ),
                    "flagged": "",
                    "ungraded": ungraded[0],
                }
            )
        totals, worth, flagged = {}, {}, set()
        for record in records:
            key = record.student_id
            totals[key] = totals.get(key, 0.0) + record.points
            worth[key] = worth.get(key, 0.0) + record.max_points
            if record.flags:
                flagged.add(key)
        best = max(worth.values())
        summary.append(
            {
                "assignment": assignment,
                "question": "TOTAL",
                "max_points": best,
                "graded": len(totals),
                "mean_points": statistics.fmean(totals.values()),
                "full_marks": sum(t == best for t in totals.values())
                / len(totals),
                "flagged": len(flagged),
                "ungraded": sum(len(r.ungraded) for r in records),
            }
        )
    return summary


def summaries_by_assignment(reports, root=None):
    """Return the grader's per-question class summary of each assignment.

    For ``grade`` runs over several assignments: the reports are grouped
    by the assignment their notebook's path names, and each group gets
    its own :func:`~svmbook_classroom.records.class_summary`, so that no
    total adds the points of two assignments.

    Parameters
    ----------
    reports : list of GradeReport
        From the grader.
    root : str or path-like, optional
        Passed to :func:`submission_of`; a path that names no student is
        grouped by its notebook's name.

    Returns
    -------
    dict
        Assignment -> the summary of ``class_summary``, in sorted order.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> from svmbook_classroom import GradeReport, QuestionGrade
    >>> reports = [
    ...     GradeReport("submitted/alice/03_smo/03_smo.ipynb", questions=[
    ...         QuestionGrade("t", 3.0, 4.0, "failed")]),
    ...     GradeReport("submitted/alice/06_em_gmm/06_em_gmm.ipynb",
    ...                 questions=[QuestionGrade("q", 5.0, 5.0, "passed")]),
    ... ]
    >>> summaries = summaries_by_assignment(reports)
    >>> [(a, s[-1]["max_points"]) for a, s in summaries.items()]
    [('03_smo', 4.0), ('06_em_gmm', 5.0)]
    """
    groups = {}
    for report in reports:
        try:
            _, assignment = submission_of(report.notebook, root)
        except ValueError:
            assignment = PurePath(report.notebook).stem
        groups.setdefault(assignment, []).append(report)
    return {a: class_summary(groups[a]) for a in sorted(groups)}


# ---------------------------------------------------------------- the CLI


def _pair(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(
            f"expected ASSIGNMENT=VALUE, got {text!r}"
        )
    return name, value


def _add_records_options(command):
    command.add_argument(
        "records",
        metavar="GRADES_CSV",
        help="the grades CSV of 'grade --csv' (paths in nbgrader's layout "
        "submitted/<student_id>/<assignment>/...) or a course records CSV",
    )
    command.add_argument(
        "--root",
        metavar="DIR",
        help="the folder of the students' folders, if the notebooks' paths "
        "have no 'submitted' folder",
    )
    command.add_argument(
        "--hand",
        metavar="HAND_CSV",
        help="hand grades of the written answers to merge (columns "
        "student_id, assignment, question, points)",
    )


def add_gradebook_commands(subparsers):
    """Add ``merge-hand-grades``, ``export-gradebook``, ``class-summaries``.

    Each subcommand sets ``handler``: the command-line entry point runs
    ``args.handler(args)``, which returns the exit status (0, or 2 with a
    message on stderr when an input is wrong).

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers``.

    References
    ----------
    The book's page for instructors (``instructors.md``), "Gradebooks".

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser(prog="svmbook-classroom")
    >>> add_gradebook_commands(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["export-gradebook", "canvas", "g.csv",
    ...                           "--out", "canvas.csv"])
    >>> args.lms, args.handler.__name__
    ('canvas', '_export')
    """
    merge = subparsers.add_parser(
        "merge-hand-grades",
        help="write course records (student ID and assignment on each row) "
        "with the hand grades of the written answers merged, after checking "
        "them",
    )
    merge.add_argument(
        "records", metavar="GRADES_CSV", help="the grades CSV of 'grade --csv'"
    )
    merge.add_argument(
        "hand",
        metavar="HAND_CSV",
        help="student_id, assignment, question, points",
    )
    merge.add_argument(
        "--out",
        metavar="FILE",
        required=True,
        help="the course records CSV to write",
    )
    merge.add_argument(
        "--root", metavar="DIR", help="the folder of the students' folders"
    )
    merge.set_defaults(handler=_merge)
    export = subparsers.add_parser(
        "export-gradebook",
        help="write one row per student and one column per assignment, in "
        "the import format of Canvas or Moodle",
    )
    export.add_argument("lms", choices=("canvas", "moodle"))
    _add_records_options(export)
    export.add_argument("--out", metavar="FILE", required=True)
    export.add_argument(
        "--roster",
        metavar="CSV",
        help="Canvas: the gradebook exported from Canvas (student columns "
        "taken from it); Moodle: a CSV with the --roster-key and "
        "--identifier columns",
    )
    export.add_argument(
        "--roster-key",
        metavar="COLUMN",
        help="the roster's column holding the student IDs (Canvas: 'SIS "
        "Login ID', the default, 'SIS User ID' or 'ID'; Moodle: default "
        "'Username')",
    )
    export.add_argument(
        "--identifier",
        metavar="COLUMN",
        default="Username",
        help="Moodle: the identifier column's header (default Username)",
    )
    export.add_argument(
        "--title",
        metavar="ASSIGNMENT=TITLE",
        type=_pair,
        action="append",
        default=[],
        help="the column header of an assignment in the LMS",
    )
    export.add_argument(
        "--deadline",
        metavar="ASSIGNMENT=TIME",
        type=_pair,
        action="append",
        default=[],
        help="a late rule for this assignment: its deadline, ISO 8601 with "
        "time zone (2026-11-20T23:59+01:00); needs --late-penalty",
    )
    export.add_argument(
        "--late-penalty",
        metavar="X",
        type=float,
        help="taken off per started day late: a fraction of the "
        "assignment's points (default) or points (--late-unit points)",
    )
    export.add_argument(
        "--late-unit", choices=("fraction", "points"), default="fraction"
    )
    export.add_argument(
        "--base",
        metavar="DIR",
        default=".",
        help="where the notebooks' paths start (for their timestamp.txt; "
        "default: .)",
    )
    export.add_argument(
        "--incomplete",
        choices=INCOMPLETE,
        default="error",
        help="a total with written answers not graded or a notebook not "
        "graded: stop with the list (default), count it as zero, or leave "
        "it blank",
    )
    export.set_defaults(handler=_export)
    summaries = subparsers.add_parser(
        "class-summaries",
        help="per assignment: each question and the total across the class",
    )
    _add_records_options(summaries)
    summaries.add_argument(
        "--out", metavar="FILE", help="also write the table to this CSV"
    )
    summaries.set_defaults(handler=_summaries)


def _load(args):
    records = read_records(args.records, args.root)
    if getattr(args, "hand", None):
        records = merge_hand_grades(records, args.hand)
    return records


def _run(work, args):
    try:
        message = work(args)
    except (OSError, ValueError) as error:
        text = (
            str(error)
            if isinstance(error, ValueError)
            else (f"{type(error).__name__}: {error}")
        )
        print(f"{args.command} failed: {text}", file=sys.stderr)
        return 2
    print(message)
    return 0


def _merge(args):
    def work(args):
        records = _load(args)
        write_records(args.out, records)
        hand = sum(
            q.status == HAND_GRADED for r in records for q in r.questions
        )
        return (
            f"wrote {args.out}: {len(records)} notebooks, {hand} "
            "written answers graded by hand"
        )

    return _run(work, args)


def _export(args):
    def work(args):
        if args.deadline and args.late_penalty is None:
            raise ValueError("--deadline needs --late-penalty")
        if args.late_penalty is not None and not args.deadline:
            raise ValueError("--late-penalty needs at least one --deadline")
        rules = {}
        for assignment, when in args.deadline:
            if assignment in rules:
                raise ValueError(f"two deadlines for {assignment}")
            rules[assignment] = LateRule(
                when, args.late_penalty, args.late_unit
            )
        book = build_gradebook(_load(args), rules, args.base, args.incomplete)
        titles = dict(args.title)
        if args.lms == "canvas":
            write_canvas(
                args.out,
                book,
                titles,
                args.roster,
                args.roster_key or "SIS Login ID",
            )
        else:
            write_moodle(
                args.out,
                book,
                titles,
                args.identifier,
                args.roster,
                args.roster_key or "Username",
            )
        lines = [
            f"wrote {args.out}: {len(book.students)} students, "
            f"{len(book.assignments)} assignments"
        ]
        for (student, assignment), (days, taken) in sorted(book.late.items()):
            lines.append(
                f"  late: {printable(student)}, {assignment}: "
                f"{days} day(s), -{_points_text(taken)} points"
            )
        return "\n".join(lines)

    return _run(work, args)


def _summaries(args):
    def work(args):
        summary = class_summaries(_load(args))
        if args.out:
            rows = [SUMMARY_COLUMNS] + [
                [
                    _points_text(row[c])
                    if isinstance(row[c], float)
                    else row[c]
                    for c in SUMMARY_COLUMNS
                ]
                for row in summary
            ]
            _atomic_csv(args.out, rows)
        return _summary_text(summary)

    return _run(work, args)


def _summary_text(summary):
    width = max([8] + [len(printable(s["question"])) for s in summary])
    lines, current = [], None
    for s in summary:
        if s["assignment"] != current:
            current = s["assignment"]
            lines.append(f"Class summary: {printable(current)}")
            lines.append(
                f"  {'question':<{width}}  {'graded':>6}  "
                f"{'mean':>15}  full marks  to grade"
            )
        mean = "-" if s["mean_points"] is None else f"{s['mean_points']:.2f}"
        full = "-" if s["full_marks"] is None else f"{s['full_marks']:.0%}"
        lines.append(
            f"  {printable(s['question']):<{width}}  {s['graded']:>6}  "
            f"{mean + ' / ' + _points_text(s['max_points']):>15}  "
            f"{full:>10}  {s['ungraded']:>8}"
        )
    return "\n".join(lines)
