"""Benchmark: fit time against n for svmlib's SMO and scikit-learn.

MNIST 3 vs 8, RBF sigma=5 (gamma=0.02), C=10, training sets of 500 to 8379
images (prefixes of the case study's training split). Two memory budgets,
each given to both libraries (cache_size, MiB): 1024 MiB, with which svmlib
computes the whole Gram matrix at once (the dense route) and LIBSVM caches
every column it uses; and a quarter of the float32 Gram matrix, with which
svmlib computes columns on demand into its cache (the cached route), as
LIBSVM does. At each n the four fits are timed by svmlib.timing.compare in
one run (a warm-up round, then the median of the repeats, BLAS threads
pinned and printed); then each series gets a fitted exponent t ~ n^k with
its standard error, marked "too noisy to tell" when the medians do not rise
with n or the standard error is 0.15 or more (svmlib.timing.Trend).

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/scaling.py
      (options: --repeats N (default 3), --threads T (default 1),
      --sizes N1 N2 ... (at least 4 for the exponents; default 500 1000
      2000 4000 and all 8379))
"""

import argparse

from _common import add_timing_options, mnist_3_vs_8
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.timing import MIN_SIZES, compare, scaling_exponent

SIGMA, C = 5.0, 10.0
GAMMA = 1 / (2 * SIGMA**2)
SIZES = (500, 1000, 2000, 4000, None)  # None: the whole training split
BUDGET = 1024  # MiB


def contenders(X, y, quarter):
    """The four fits at one n: two routes, each budget on both sides."""
    return {
        f"svmlib, {BUDGET} MiB (dense)": lambda: SVC(
            C=C, sigma=SIGMA, cache_size=BUDGET
        ).fit(X, y),
        f"sklearn, {BUDGET} MiB": lambda: SklearnSVC(
            C=C, gamma=GAMMA, cache_size=BUDGET
        ).fit(X, y),
        "svmlib, 1/4 Gram (cached)": lambda: SVC(
            C=C, sigma=SIGMA, cache_size=quarter
        ).fit(X, y),
        "sklearn, 1/4 Gram": lambda: SklearnSVC(
            C=C, gamma=GAMMA, cache_size=quarter
        ).fit(X, y),
    }


def main(repeats=3, threads=1, sizes=SIZES):
    X_train, y_train, _, _ = mnist_3_vs_8()
    sizes = [
        len(y_train) if n is None else min(n, len(y_train)) for n in sizes
    ]
    timings = {}
    for n in sizes:
        X, y = X_train[:n], y_train[:n]
        quarter = 0.25 * n * n * X.itemsize / 2**20
        comparison = compare(
            contenders(X, y, quarter),
            baseline=f"sklearn, {BUDGET} MiB",
            repeats=repeats,
            threads=threads,
        )
        print(f"n = {n} (1/4 Gram = {quarter:.2f} MiB)\n{comparison}\n")
        for name, timing in comparison.timings.items():
            timings.setdefault(name, []).append(timing)
    if len(set(sizes)) < MIN_SIZES:
        print(f"(no exponents: they need at least {MIN_SIZES} sizes)")
        return
    print(f"fitted exponents over n = {', '.join(map(str, sizes))}:")
    for name, series in timings.items():
        print(f"  {name}: {scaling_exponent(sizes, series)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=SIZES,
        help="training-set sizes n (default: 500 1000 2000 4000 and all)",
    )
    arguments = parser.parse_args()
    main(arguments.repeats, arguments.threads, arguments.sizes)
