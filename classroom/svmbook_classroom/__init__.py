r"""Classroom assignments: a student edition, and a grader for submissions.

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
  copy when grading;
* the notebook's metadata ``svmbook.off_limits`` lists the svmlib functions
  that implement what the students write; answers must not call them.

Every marked cell has a unique ``grade_id``. Instructors who run nbgrader can
use the notebooks as they are. This package does the jobs without
nbgrader's course database, with nbgrader's own preprocessors and nbclient:

* :func:`release` writes the student versions (solutions, written answers
  and hidden tests removed, outputs and execution times cleared), and
  :func:`student_edition` the whole folder that students get: the student
  notebooks, the library and the instructions, nothing else;
* :func:`grade_notebook` grades one submission: in a fresh folder, its
  kernel in a sandbox (:mod:`~svmbook_classroom.sandbox`), the test cells
  (hidden tests included) restored from the solution notebook, every
  tampering with IPython or the test helpers undone before the tests and
  flagged (:mod:`~svmbook_classroom.kernel_guard`), off-limits calls
  flagged, and each test cell scored as nbgrader does: full points if the
  kernel reports it ran without an error (and wrote nothing to stderr),
  zero otherwise;
* :mod:`~svmbook_classroom.records` writes one feedback notebook per student
  (hidden tests removed), keeps a CSV of grades up to date and summarises
  the class per question.

Command line (``python -m svmbook_classroom --help``)::

    python -m svmbook_classroom student-edition student-edition/
    python -m svmbook_classroom grade submitted/*/01_primal_sgd.ipynb \
        --source assignments/ --jobs 2 --csv grades.csv --feedback feedback/

Grading several notebooks shows a progress bar on the terminal (on stderr;
none when stderr is not a terminal, as under CI or pytest).

This is the package ``svmbook-classroom`` (its sources are the book's
``classroom/`` folder, ``pip install ./classroom``), separate from svmlib:
svmlib is the library a student installs, and nothing in it imports the
grader. It depends on svmlib and on nbgrader, nbformat, nbclient and
traitlets.

The instructors' page of the book (``instructors.md``) describes the whole
workflow, with and without nbgrader, and what the grader protects against.
"""

from .cli import main
from .grading import (
    DEFAULT_TIMEOUT,
    GradeReport,
    Limits,
    QuestionGrade,
    RestoreLockedCells,
    grade_notebook,
)
from .release import release, release_notebook, student_edition

__all__ = [
    "DEFAULT_TIMEOUT",
    "GradeReport",
    "Limits",
    "QuestionGrade",
    "RestoreLockedCells",
    "grade_notebook",
    "main",
    "release",
    "release_notebook",
    "student_edition",
]
