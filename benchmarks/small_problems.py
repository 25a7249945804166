"""Small problems with many cheap steps: svmlib.SVC against scikit-learn.

Issue 27's targets: the digits set (1797 images, 10 classes, RBF,
scikit-learn's defaults: C=1, gamma="scale") <= 1.0 times scikit-learn's
fit, and raw breast_cancer (569 points, 30 unscaled features) with the
linear kernel and C=1 (millions of SMO steps) <= 2 times. Both libraries
are timed by svmlib.timing.compare in the same run, alternately (one
warm-up round, then the median of the repeats), BLAS threads pinned and
printed. The script prints the ratio of the medians, both libraries'
numbers of steps, and how often the two models agree on the training
points. The machine this runs on may be shared: the absolute times are
then loaded, the same-run ratios are what to read.

Run:  python benchmarks/small_problems.py  (options: --repeats N,
      --threads T, --profile to print cProfile's top functions of one
      svmlib fit of each problem)
"""

import argparse
import cProfile
import os
import pstats

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.timing import compare


def problems():
    """name -> (X, y, parameters of both SVCs)."""
    X_digits, y_digits = load_digits(return_X_y=True)
    X_cancer, y_cancer = load_breast_cancer(return_X_y=True)
    return {
        "digits, RBF, defaults": (X_digits, y_digits, {}),
        "breast_cancer raw, linear, C=1": (
            X_cancer,
            y_cancer,
            {"kernel": "linear", "C": 1.0},
        ),
    }


def main(repeats=5, threads=1, profile=False):
    print(
        f"os.cpu_count()={os.cpu_count()}; load average "
        f"{', '.join(f'{v:.2f}' for v in os.getloadavg())}"
    )
    for name, (X, y, params) in problems().items():
        print(f"{name}: {X.shape[0]} points, {X.shape[1]} features")
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            SVC(**params).fit(X, y)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        comparison = compare(
            {
                "svmlib.SVC": lambda: SVC(**params).fit(X, y),  # noqa: B023
                "sklearn SVC": lambda: SklearnSVC(**params).fit(X, y),  # noqa: B023
            },
            repeats=repeats,
            threads=threads,
        )
        ours = comparison.timings["svmlib.SVC"]
        theirs = comparison.timings["sklearn SVC"]
        print(comparison)
        print(f"BLAS threads: {ours.threads}")
        ratio = comparison.ratio("svmlib.SVC", "sklearn SVC")
        print(f"ratio svmlib / scikit-learn: {ratio:.3f}")
        agree = np.mean(ours.result.predict(X) == theirs.result.predict(X))
        print(
            f"steps: svmlib {int(np.sum(ours.result.n_iter_))}, scikit-learn "
            f"{int(np.sum(theirs.result.n_iter_))}; training predictions "
            f"agree: {agree:.2%}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    main(args.repeats, args.threads, args.profile)
