"""Benchmark: fit time against n from 500 to 30000 MNIST training images.

A binary problem that exists at every size up to 60000: even digits (+1)
against odd digits (-1), on the first n images of one random permutation of
the official training set (pixels in [0, 1], float32), RBF gamma=0.02
(sigma=5), C=10, tol=1e-3. At each n, svmlib.timing.compare times in one
run, alternating:

* svmlib, 1024 MiB: ``SVC(cache_size=1024)``. It computes the whole Gram
  matrix (dense route) while its n^2 float32 entries fit in 1024 MiB, that
  is up to n = 16384, and columns on demand into a 1024 MiB cache beyond
  (cached route): the crossover where the Gram matrix stops fitting.
* svmlib, 1024 MiB, no shrinking: the same with ``shrinking=False``.
* svmlib, cached (1/4 Gram): the cached route at every n, with a cache a
  quarter of the Gram matrix.
* sklearn, 1024 MiB: scikit-learn's SVC (LIBSVM) with the same budget.

Each time is the median of the repeats; the warm-up round is left out
from n = 30000 on, where a fit takes a minute or more and the first round
is as warm as the others. With --csv every timed run is written, one row
per run, under a header of comment lines recording the machine, the
versions, the commit and the command (the chapter *Scaling up* reads
benchmarks/results/scaling_all.csv and fits its exponents).

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/scaling_all.py \
          --csv benchmarks/results/scaling_all.csv
      (options: --repeats N (default 3), --threads T (default 1),
      --sizes N1 N2 ... (default 500 1000 2000 4000 8000 16000 30000);
      --append adds the run to the end of --csv, under its own comment
      lines; the default run takes about 7 minutes here. All 60000
      images: --sizes 60000 --repeats 1 --append, a separate run whose
      round of four fits takes many minutes; with --repeats 1 each fit is
      timed once by svmlib.timing.time_once, one run and no median, and
      the comment lines say so)
"""

import argparse
import csv
import datetime
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import sklearn
from _common import add_timing_options
from sklearn.svm import SVC as SklearnSVC

import svmlib
from svmlib import SVC
from svmlib.datasets import load_mnist
from svmlib.gram import gram_fits
from svmlib.timing import compare, time_once

C, GAMMA, TOL = 10.0, 0.02, 1e-3
BUDGET = 1024  # MiB, for svmlib and scikit-learn alike
SIZES = (500, 1000, 2000, 4000, 8000, 16000, 30000)
NO_WARMUP_FROM = 30000  # n from which the warm-up round is left out
FIELDS = ("n", "series", "route", "run", "seconds", "threads", "n_support")


def even_odd(random_state=0):
    """All training images in one random order; +1 even, -1 odd digits."""
    X, digit = load_mnist(subset="train")
    order = np.random.default_rng(random_state).permutation(len(digit))
    return X[order], np.where(digit[order] % 2 == 0, 1.0, -1.0)


def contenders(X, y):
    """The four fits at one n (name: (route, function returning the model))."""
    n = len(y)
    quarter = 0.25 * n * n * X.itemsize / 2**20
    route = "dense" if gram_fits(n, X.dtype, BUDGET) else "cached"
    models = {
        f"svmlib, {BUDGET} MiB": (
            route, SVC(C=C, gamma=GAMMA, tol=TOL, cache_size=BUDGET)
        ),
        f"svmlib, {BUDGET} MiB, no shrinking": (
            route,
            SVC(C=C, gamma=GAMMA, tol=TOL, cache_size=BUDGET, shrinking=False),
        ),
        "svmlib, cached (1/4 Gram)": (
            "cached", SVC(C=C, gamma=GAMMA, tol=TOL, cache_size=quarter)
        ),
        f"sklearn, {BUDGET} MiB": (
            "LIBSVM", SklearnSVC(C=C, gamma=GAMMA, tol=TOL, cache_size=BUDGET)
        ),
    }  # fmt: skip
    return {
        name: (route, lambda m=model: m.fit(X, y))
        for name, (route, model) in models.items()
    }


def provenance(threads, repeats):
    """Comment lines for the CSV: when, where, what and how it ran."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, cwd=Path(__file__).parent,
    ).stdout.strip()  # fmt: skip
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        capture_output=True, text=True, cwd=Path(__file__).parent,
    ).stdout.strip()  # fmt: skip
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    return [
        f"date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"machine: {cpu}, {platform.machine()}, {platform.system()}",
        f"python {platform.python_version()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, svmlib {svmlib.__version__}",
        f"commit: {commit}{' (with uncommitted changes)' if dirty else ''}",
        f"command: python {' '.join(sys.argv)}",
        f"problem: MNIST even (+1) vs odd (-1) digits, first n of a "
        f"random permutation (numpy default_rng(0)); RBF gamma={GAMMA} C={C} "
        f"tol={TOL}",
        (
            f"timing: svmlib.timing.compare, {repeats} timed rounds, "
            f"{threads} BLAS thread(s), warm-up round below n = "
            f"{NO_WARMUP_FROM}"
            if repeats > 1
            else "timing: svmlib.timing.time_once, one round of the fits, "
            f"each run once (no warm-up, no median), {threads} BLAS "
            "thread(s)"
        ),
    ]


def main(repeats=3, threads=1, sizes=SIZES, csv_path=None, append=False):
    X_all, y_all = even_odd()
    rows = []
    writer = None
    if csv_path is not None:
        # with append, this run's comment lines and rows follow the file's
        out = open(csv_path, "a" if append else "w", newline="")  # noqa: SIM115
        out.writelines(f"# {line}\n" for line in provenance(threads, repeats))
        writer = csv.DictWriter(out, FIELDS)
        writer.writeheader()
    for n in sizes:
        X, y = X_all[:n], y_all[:n]
        fits = contenders(X, y)
        if repeats == 1:  # one round, each fit once: no median, no ratio
            timings = {
                name: time_once(function, threads=threads)
                for name, (_, function) in fits.items()
            }
            lines = [f"{name}: {t}" for name, t in timings.items()]
            print(f"n = {n}\n" + "\n".join(lines) + "\n", flush=True)
        else:
            comparison = compare(
                {name: function for name, (_, function) in fits.items()},
                baseline=f"sklearn, {BUDGET} MiB",
                repeats=repeats,
                warmup=0 if n >= NO_WARMUP_FROM else 1,
                threads=threads,
            )
            timings = comparison.timings
            print(f"n = {n}\n{comparison}\n", flush=True)
        for name, timing in timings.items():
            for run, seconds in enumerate(timing.seconds):
                rows.append(
                    {
                        "n": n, "series": name, "route": fits[name][0],
                        "run": run, "seconds": f"{seconds:.4f}",
                        "threads": timing.threads,
                        "n_support": len(timing.result.support_),
                    }
                )  # fmt: skip
                if writer is not None:
                    writer.writerow(rows[-1])
        if writer is not None:
            out.flush()  # a run cut short keeps the sizes it finished
    if writer is not None:
        out.close()
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=SIZES,
        help="training-set sizes n (default: 500 to 30000)",
    )
    parser.add_argument(
        "--csv", type=Path, default=None, help="write every run to this file"
    )
    parser.add_argument(
        "--append",
        action="store_true",
        help="add this run (its comment lines and rows) to the end of --csv",
    )
    arguments = parser.parse_args()
    main(
        arguments.repeats,
        arguments.threads,
        arguments.sizes,
        arguments.csv,
        arguments.append,
    )
