"""Benchmark: grading a class of synthetic submissions, serial and parallel.

A class of N students (default 100) hands in one assignment (default
03_smo), in nbgrader's layout ``submitted/<student_id>/<assignment>/``: half
hand in the solution notebook itself, 30% the solution with two honest
mistakes (the answers of ``tests/submissions/<assignment>_two_bugs.py``
where that file exists, else the first answer replaced by a wrong return),
and 20% the student notebook with nothing filled in. ``python -m
svmbook_classroom grade`` grades them all, with ``--jobs`` 1 and 2 (or those
given), each submission in its own sandboxed kernel. For each run it prints
the wall time, the time per notebook, the mean interval between two
graded notebooks (rows are written as each finishes) and the points each
kind scored; then the ratio of the runs. One run per setting: a class takes
minutes, and the ratio compares runs made one after the other on the same
machine. The load average before and after each run is printed: other work
on the machine slows a run down.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/grading.py
      (options: --students N, --assignment NAME, --jobs J1 J2 ...)
"""

import argparse
import collections
import contextlib
import csv
import os
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

import nbformat
from threadpoolctl import threadpool_info

from svmbook_classroom import main, release_notebook
from svmbook_classroom.records import TOTAL
from svmbook_classroom.sandbox import bwrap

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = re.compile(r"### BEGIN SOLUTION\n.*?### END SOLUTION", re.S)


def broken(nb):
    """The solution with its first answer replaced by a wrong one."""
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        if cell.cell_type == "code" and SOLUTION.search(cell.source):
            indent = re.search(r"( *)### BEGIN SOLUTION", cell.source)[1]
            cell.source = SOLUTION.sub(
                f"{indent}return None  # wrong", cell.source, count=1
            )
            return nb
    raise ValueError("no solution region")


def two_bugs(solution, assignment):
    """The released notebook answered with the two-bugs fixture, or None."""
    fixture = ROOT / "tests" / "submissions" / f"{assignment}_two_bugs.py"
    if not fixture.exists():
        return None
    sources, current = {}, None
    for line in fixture.read_text().splitlines(keepends=True):
        if line.startswith("# cell: "):
            current = line.removeprefix("# cell: ").strip()
            sources[current] = ""
        elif current is not None:
            sources[current] += line
    nb = release_notebook(solution)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in sources:
            cell.source = sources.pop(grade_id).strip()
    if sources:
        raise ValueError(f"{fixture.name}: no answer cell {sorted(sources)}")
    return nb


#: the class: (kind, share of the students)
MIX = (("solution", 0.5), ("two bugs", 0.3), ("nothing", 0.2))


def kind_of(k, students):
    """The kind of submission of student k (by the shares of MIX)."""
    bound = 0.0
    for kind, share in MIX:
        bound += share * students
        if k < round(bound):
            return kind
    return MIX[-1][0]


def write_class(folder, assignment, students):
    """nbgrader's layout; the paths of the submissions and their kinds."""
    solution = nbformat.read(
        ROOT / "assignments" / f"{assignment}.ipynb", as_version=4
    )
    notebooks = {
        "solution": solution,
        "two bugs": two_bugs(solution, assignment) or broken(solution),
        "nothing": release_notebook(solution),
    }
    paths, kinds = [], {}
    for k in range(students):
        target = (
            Path(folder) / "submitted" / f"student{k:03d}" / assignment
            / f"{assignment}.ipynb"
        )  # fmt: skip
        target.parent.mkdir(parents=True)
        kind = kind_of(k, students)
        nbformat.write(notebooks[kind], target)
        paths.append(str(target))
        kinds[str(target)] = kind
    return paths, kinds


def watch_rows(csv_path, stop, finished):
    """Record when each notebook's rows first appear in the CSV."""
    seen = set()
    while not stop.is_set():
        with contextlib.suppress(OSError):
            with open(csv_path, newline="") as f:
                for row in csv.reader(f):
                    if row and row[0] not in seen and row[0] != "notebook":
                        seen.add(row[0])
                        finished.append(time.perf_counter())
        stop.wait(0.5)


def points_by_kind(csv_path, kinds):
    """{kind: Counter of total autograded points per notebook}."""
    totals = collections.defaultdict(float)
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["question"] == TOTAL:
                totals[row["notebook"]] = float(row["points"])
    result = collections.defaultdict(collections.Counter)
    for path, kind in kinds.items():
        result[kind][totals.get(path)] += 1
    return result


def load():
    """The 1-minute load average."""
    return os.getloadavg()[0]


def main_benchmark(students=100, assignment="03_smo", jobs=(1, 2)):
    source = str(ROOT / "assignments")
    print(
        f"{students} submissions of {assignment}; sandbox: "
        f"{'bubblewrap' if bwrap() else 'none (bwrap not installed)'}; "
        f"{os.cpu_count()} cores; BLAS: "
        + ", ".join(
            f"{i['internal_api']} {i['num_threads']} threads"
            for i in threadpool_info()
        )
    )
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        paths, kinds = write_class(folder, assignment, students)
        for j in jobs:
            csv_path = Path(folder) / f"grades-{j}.csv"
            finished, stop = [], threading.Event()
            watcher = threading.Thread(
                target=watch_rows, args=(csv_path, stop, finished)
            )
            before = load()
            start = time.perf_counter()
            watcher.start()
            with open(os.devnull, "w") as quiet:
                # the reports go to /dev/null
                with contextlib.redirect_stdout(quiet):
                    status = main(
                        ["grade", *paths, "--source", source, "--jobs",
                         str(j), "--csv", str(csv_path)]
                    )  # fmt: skip
            seconds[j] = time.perf_counter() - start
            stop.set()
            watcher.join()
            gaps = [
                b - a for a, b in zip(finished, finished[1:], strict=False)
            ]
            print(
                f"--jobs {j}: {seconds[j]:.0f} s for {students} notebooks, "
                f"{seconds[j] / students:.2f} s a notebook (exit {status}); "
                f"first graded after {finished[0] - start:.0f} s, then one "
                f"every {statistics.fmean(gaps):.2f} s; "
                f"load average {before:.1f} before, {load():.1f} after"
                if len(finished) > 1
                else f"--jobs {j}: {seconds[j]:.0f} s (exit {status})"
            )
            for kind, counts in points_by_kind(csv_path, kinds).items():
                scored = ", ".join(
                    f"{n} x {p:g}" if p is not None else f"{n} x no row"
                    for p, n in sorted(
                        counts.items(), key=lambda i: (i[0] is None, i[0])
                    )
                )
                print(f"  {kind}: {scored} points")
    first = jobs[0]
    for j in jobs[1:]:
        ratio = seconds[j] / seconds[first]
        print(f"--jobs {j} / --jobs {first}: {ratio:.2f}")
    return seconds


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--assignment", default="03_smo")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    arguments = parser.parse_args()
    main_benchmark(arguments.students, arguments.assignment, arguments.jobs)
