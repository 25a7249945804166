"""Benchmark: grading a class of synthetic submissions, serial and parallel.

A class of N students (default 100) hands in one assignment (default
03_smo): a third hand in the solution notebook itself, a third the student
notebook with nothing filled in, and a third the solution with its first
answer broken (the body of the first solution region replaced by a wrong
return). ``python -m svmbook_classroom grade`` grades them all, with
``--jobs`` 1 and 2 (or those given), each submission in its own sandboxed
kernel; the wall time of each whole run is printed with the time per
notebook and the ratio of the runs. One run per setting: a class takes
minutes, and the ratio compares runs made one after the other on the same
machine.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/grading.py
      (options: --students N, --assignment NAME, --jobs J1 J2 ...)
"""

import argparse
import contextlib
import os
import re
import tempfile
import time
from pathlib import Path

import nbformat
from threadpoolctl import threadpool_info

from svmbook_classroom import main, release_notebook
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


def write_class(folder, assignment, students):
    """One folder per student, each holding its submission; their paths."""
    solution = nbformat.read(
        ROOT / "assignments" / f"{assignment}.ipynb", as_version=4
    )
    kinds = [solution, release_notebook(solution), broken(solution)]
    paths = []
    for k in range(students):
        target = Path(folder) / f"student{k:03d}" / f"{assignment}.ipynb"
        target.parent.mkdir(parents=True)
        nbformat.write(kinds[k % 3], target)
        paths.append(str(target))
    return paths


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
        paths = write_class(folder, assignment, students)
        for j in jobs:
            csv_path = Path(folder) / f"grades-{j}.csv"
            start = time.perf_counter()
            with open(os.devnull, "w") as quiet:
                # the reports go to /dev/null
                with contextlib.redirect_stdout(quiet):
                    status = main(
                        ["grade", *paths, "--source", source, "--jobs",
                         str(j), "--csv", str(csv_path)]
                    )  # fmt: skip
            seconds[j] = time.perf_counter() - start
            print(
                f"--jobs {j}: {seconds[j]:.0f} s for {students} notebooks, "
                f"{seconds[j] / students:.2f} s a notebook (exit {status})"
            )
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
