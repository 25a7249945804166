"""Benchmark: the book's dual solvers on a 2000-image MNIST 3-vs-8 subset.

RBF sigma=5, C=10, each solver to its own stopping rule (tol=1e-3 where it
has one), all on the same precomputed Gram matrix, scikit-learn's SVC
included (kernel="precomputed", the same matrix in float64). All are timed by
svmlib.timing.compare in one run, alternately: a warm-up round, then the
median of the repeats, BLAS threads pinned and printed. Prints iterations,
median seconds, the ratio to scikit-learn's median, the dual objective and
its relative gap to scikit-learn's.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/solvers.py
      (options: --repeats N (default 3), --threads T (default 1),
      --n N training images (default 2000; smaller for a quick check))
"""

import argparse
import warnings

import numpy as np
from _common import add_timing_options, full_alpha, mnist_3_vs_8, plus_minus
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import dual_objective
from svmlib.kernels import rbf_kernel
from svmlib.solvers import simplified_smo, smo
from svmlib.solvers.gradient_ascent import dual_gd
from svmlib.timing import compare

SIGMA, C, N = 5.0, 10.0, 2000
REFERENCE = "scikit-learn (LIBSVM)"


def main(repeats=3, threads=1, n=N):
    X_train, digits, _, _ = mnist_3_vs_8()
    X, y = X_train[:n], plus_minus(digits[:n])
    K = rbf_kernel(X, sigma=SIGMA).astype(np.float64)
    contenders = {
        "dual gradient ascent": lambda: dual_gd(K, y, C, max_iter=5000),
        "simplified SMO": lambda: simplified_smo(K, y, C, random_state=0),
        "Platt's SMO": lambda: smo(K, y, C, selection="platt", random_state=0),
        "SMO, WSS 2": lambda: smo(K, y, C),
        REFERENCE: lambda: SklearnSVC(C=C, kernel="precomputed").fit(K, y),
    }
    print(
        f"MNIST 3 vs 8, first {n} training images, RBF sigma={SIGMA:g}, "
        f"C={C:g}; the same float64 Gram matrix for every solver"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        comparison = compare(
            contenders, baseline=REFERENCE, repeats=repeats, threads=threads
        )
    print(comparison, end="\n\n")

    reference = comparison.timings[REFERENCE].result
    W_reference = dual_objective(
        full_alpha(reference.support_, reference.dual_coef_, n), K, y
    )
    print(
        f"{'solver':<24} {'iterations':>10} {'seconds':>8} {'ratio':>7} "
        f"{'dual objective':>15} {'gap to sklearn':>15}"
    )
    for name, timing in comparison.timings.items():
        if name == REFERENCE:
            n_iter, W = reference.n_iter_[0], W_reference
        else:
            n_iter, W = timing.result.n_iter, timing.result.dual_objective
        gap = (W_reference - W) / W_reference
        print(
            f"{name:<24} {n_iter:>10} {timing.median:>8.3f} "
            f"{comparison.ratio(name):>7.2f} {W:>15.6f} {gap:>+15.2e}"
        )
    print(
        f"(seconds: median of {repeats} after a warm-up, "
        f"{comparison.timings[REFERENCE].threads} BLAS thread(s); ratio: "
        f"to {REFERENCE}, same run)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=3)
    parser.add_argument(
        "--n", type=int, default=N, help=f"training images (default {N})"
    )
    arguments = parser.parse_args()
    main(arguments.repeats, arguments.threads, arguments.n)
