"""``python -m svmbook_classroom``: release, student-edition and grade.

Run ``python -m svmbook_classroom --help`` for the options; the instructors'
page of the book walks through a whole course.
"""

import argparse
import csv
import math
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat
from tqdm import tqdm

from . import grading, records
from .gradebook import add_gradebook_commands, summaries_by_assignment
from .release import release, student_edition
from .sandbox import Limits

__all__ = ["main"]


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m svmbook_classroom",
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
    edition = commands.add_parser(
        "student-edition",
        help="write the folder (and .zip) that students get: the student "
        "notebooks, svmlib and the instructions, no solutions",
    )
    edition.add_argument(
        "out_dir", metavar="OUT_DIR", help="a new folder outside the book"
    )
    edition.add_argument(
        "--project", default=".", help="the book's folder (default: .)"
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
        "(restores its locked cells; its checks are read from "
        "checks/<name>.py beside it)",
    )  # fmt: skip
    grd.add_argument(
        "--timeout", metavar="SECONDS", type=float,
        default=grading.DEFAULT_TIMEOUT,
        help=f"time limit per cell (default {grading.DEFAULT_TIMEOUT})",
    )  # fmt: skip
    defaults = Limits()
    grd.add_argument(
        "--notebook-timeout", metavar="SECONDS", type=float,
        default=defaults.notebook_time,
        help="wall-clock budget of a whole notebook; the cells left when it "
        f"is spent are not run (default {defaults.notebook_time:g})",
    )  # fmt: skip
    grd.add_argument(
        "--memory", metavar="MIB", type=float, default=defaults.memory,
        help="address space of each process of a kernel in the sandbox, "
        f"in MiB (default {defaults.memory:g})",
    )  # fmt: skip
    grd.add_argument(
        "--processes", metavar="N", type=int, default=defaults.processes,
        help="processes and threads of the kernel's user in the sandbox "
        f"(default {defaults.processes})",
    )  # fmt: skip
    grd.add_argument(
        "--cpu-time", metavar="SECONDS", type=float,
        default=defaults.cpu_time,
        help="CPU seconds of each process in the sandbox; the kernel is "
        f"killed past it (default {defaults.cpu_time:g})",
    )  # fmt: skip
    grd.add_argument(
        "--file-size", metavar="MIB", type=float,
        default=defaults.file_size,
        help="largest file a kernel in the sandbox may write, in MiB "
        f"(default {defaults.file_size:g})",
    )  # fmt: skip
    grd.add_argument(
        "--jobs", metavar="N", type=int, default=1,
        help="grade N submissions at a time (default 1); each kernel then "
        "uses its share of the cores for BLAS (unless OMP_NUM_THREADS is "
        "set)",
    )  # fmt: skip
    grd.add_argument(
        "--isolation", choices=grading.ISOLATION, default="auto",
        help="run each kernel in a bubblewrap sandbox: 'auto' (if bwrap is "
        "installed; the default), 'sandbox' (required) or 'none'",
    )  # fmt: skip
    grd.add_argument(
        "--csv", metavar="FILE",
        help="keep the scores in this CSV file (rows of a notebook graded "
        "again are replaced)",
    )  # fmt: skip
    grd.add_argument(
        "--feedback", metavar="DIR",
        help="write one feedback notebook per student here (hidden tests "
        "removed)",
    )  # fmt: skip
    grd.add_argument(
        "--summary", metavar="FILE",
        help="write the per-question summary of the class to this CSV",
    )  # fmt: skip
    add_gradebook_commands(commands)  # the course's records
    return parser


def _grade_one(notebook, content, options):
    """Grade one submission (in a worker process when --jobs > 1).

    Whatever goes wrong with this submission becomes its report's error;
    only a problem on the instructor's side (``SourceError``) is raised.
    """
    try:
        return grading.grade_notebook(notebook, content=content, **options)
    except grading.SourceError:
        raise
    except Exception as error:
        return _failed(notebook, error)


def _failed(notebook, error):
    """Return the report of a submission the grader could not grade."""
    return grading.GradeReport(
        str(Path(notebook)),
        error=f"cannot grade: the grader failed on it "
        f"({type(error).__name__}: {error})",
    )


def _read_all(notebooks):
    """Every submission's text, read before any student code runs.

    A submission therefore cannot change another one that is graded
    after it, even where no sandbox keeps the files apart.
    """
    contents = {}
    for notebook in notebooks:
        try:
            contents[notebook] = Path(notebook).read_text()
        except (OSError, UnicodeDecodeError):
            contents[notebook] = None  # grade_notebook reports it
    return contents


def kernel_threads(jobs, cores=None):
    """BLAS threads of each kernel when ``jobs`` kernels run at once.

    Each kernel gets its share of the cores, at least one: with 2 jobs on
    2 cores, two kernels of 2 BLAS threads each would run 4 threads on 2
    cores, and OpenBLAS's threads wait for each other (measured with
    ``benchmarks/grading.py``: one notebook every 3.6 s with one thread a
    kernel). An ``OMP_NUM_THREADS`` set by the instructor wins, and
    ``sandbox.KERNEL_THREADS`` caps it either way.

    >>> kernel_threads(2, cores=2), kernel_threads(3, cores=2)
    (1, 1)
    >>> kernel_threads(2, cores=16)
    8
    """
    if cores is None:
        cores = len(os.sched_getaffinity(0))
    return max(1, cores // jobs)


def _share_cores(threads):
    """Give the kernels of this worker ``threads`` BLAS threads."""
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))


def _reports(notebooks, options, jobs):
    """Grade every notebook; yield the reports as they are finished."""
    contents = _read_all(notebooks)
    if jobs == 1:
        for notebook in notebooks:
            yield _grade_one(notebook, contents[notebook], options)
        return
    # a fresh interpreter per worker: no state shared with this process
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_share_cores,
        initargs=(kernel_threads(jobs),),
    ) as pool:
        futures = {
            pool.submit(_grade_one, notebook, contents[notebook], options): (
                notebook
            )
            for notebook in notebooks
        }
        for future in as_completed(futures):
            try:
                yield future.result()
            except grading.SourceError:
                for other in futures:
                    other.cancel()
                raise
            except Exception as error:  # a worker that died, say
                yield _failed(futures[future], error)


def _write_feedback(target, report):
    if report.executed_notebook is None:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(records.feedback_notebook(report), target)


def _write_summary(path, summary):
    with Path(path).open("w", newline="") as handle:
        writer = csv.DictWriter(
            handle,
            ["assignment", "question", "max_points", "graded", "mean_points",
             "full_marks", "flagged"],
        )  # fmt: skip
        writer.writeheader()
        writer.writerows(summary)


def _check_options(args):
    if not math.isfinite(args.timeout) or args.timeout <= 0:
        return "--timeout must be a positive number of seconds"
    if args.jobs < 1:
        return "--jobs must be at least 1"
    try:
        args.limits = Limits(
            memory=args.memory, processes=args.processes,
            cpu_time=args.cpu_time, file_size=args.file_size,
            notebook_time=args.notebook_timeout,
        )  # fmt: skip
    except ValueError as error:
        return "--" + str(error).replace("_", "-").replace(
            "notebook-time", "notebook-timeout"
        )
    try:
        grading.use_sandbox(args.isolation)
    except ValueError as error:
        return str(error)
    return None


def _grade(args):
    problem = _check_options(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    options = dict(
        source=args.source, timeout=args.timeout, isolation=args.isolation,
        limits=args.limits,
    )  # fmt: skip
    feedback = {
        str(Path(notebook)): relative
        for notebook, relative in zip(
            args.notebooks, records.feedback_paths(args.notebooks),
            strict=True,
        )
    }  # fmt: skip
    reports, status = [], 0
    # a progress bar for a person at a terminal; disable=None turns it off
    # when stderr is not a terminal (CI, pytest, a log file)
    progress = tqdm(
        total=len(args.notebooks), desc="grading", unit="notebook",
        file=sys.stderr, disable=None,
    )  # fmt: skip
    try:
        for report in _reports(args.notebooks, options, args.jobs):
            progress.set_postfix_str(
                grading.printable(Path(report.notebook).name)
            )
            progress.update()
            # above the bar, which tqdm draws again below
            progress.write(report.to_text(), file=sys.stdout)
            sys.stdout.flush()
            status = 1 if report.error else status
            reports.append(report)
            # kept as soon as graded: an interrupted run loses nothing done
            if args.feedback:
                target = Path(args.feedback) / feedback[report.notebook]
                try:
                    _write_feedback(target, report)
                except Exception as error:  # this one's feedback only
                    print(
                        "could not write the feedback of "
                        f"{grading.printable(report.notebook)}: "
                        f"{type(error).__name__}",
                        file=sys.stderr,
                    )
            if args.csv:
                records.update_csv(args.csv, [report])
    except grading.SourceError as error:  # the instructor's side
        progress.close()
        print(f"grade failed: {error}", file=sys.stderr)
        return 1
    progress.close()
    # one summary per assignment: no class total adds two assignments
    summaries = summaries_by_assignment(reports)
    if len(reports) > 1:
        for assignment, summary in summaries.items():
            print(f"{grading.printable(assignment)}: ", end="")
            print(records.summary_text(summary))
    if args.summary:
        _write_summary(
            args.summary,
            [dict(row, assignment=assignment)
             for assignment, summary in summaries.items() for row in summary],
        )  # fmt: skip
    return status


def main(argv=None):
    """Command-line entry point: ``release``, ``student-edition``, ``grade``.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 on success; 1 if a notebook could not be released or
        could not be run at all (the message says why); 2 for bad usage.

    References
    ----------
    The book's page for instructors (``instructors.md``); the subcommands do
    what ``nbgrader generate_assignment`` and ``nbgrader autograde`` do
    (Project Jupyter et al. (2019), "nbgrader: a tool for creating and grading
    assignments in the Jupyter Notebook", *Journal of Open Source Education*
    2(11), 32).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import nbformat
    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> from svmbook_classroom import main
    >>> folder = Path(tempfile.mkdtemp())
    >>> nb = new_notebook(cells=[new_code_cell("x = 4")])
    >>> nbformat.write(nb, folder / "01_x.ipynb")
    >>> status = main(["release", str(folder), str(folder / "out")])
    ... # doctest: +ELLIPSIS
    wrote .../out/01_x.ipynb
    >>> status
    0
    """
    args = _parser().parse_args(argv)
    if hasattr(args, "handler"):  # merge-hand-grades, export-gradebook, ...
        return args.handler(args)
    if args.command == "grade":
        return _grade(args)
    try:
        if args.command == "release":
            written = release(args.source, args.out_dir)
        else:
            written = [student_edition(args.project, args.out_dir)]
    except Exception as error:
        print(
            f"{args.command} failed: {type(error).__name__}: {error}",
            file=sys.stderr,
        )
        return 1
    for target in written:
        print(f"wrote {target}")
    return 0
