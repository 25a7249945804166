"""Benchmark: svmlib.SVC against scikit-learn's SVC (LIBSVM) on MNIST 3 vs 8.

The setting of the book's case study: all 3s and 8s of MNIST, the 60% training
split of a stratified 60:20:20 split (8379 images), RBF kernel with C=10 and
gamma=0.02 (sigma=5), tol=1e-3, the same memory budget for kernel values on
both sides (cache_size=1024 MiB: svmlib's default, with which it computes the
whole Gram matrix at once; LIBSVM caches the columns it uses). Both fits are
timed by svmlib.timing.compare in the same run, alternately: a warm-up round,
then the median of the repeats, BLAS threads pinned and printed. The script
prints the ratio of the medians, both dual objectives (computed on one float64
Gram matrix), and how often the two models agree on the test split.

The floor of the dense route is timed in the same run: the float32 RBF Gram
matrix alone (one BLAS product, the exponential in place), plus svmlib's SMO
on that precomputed matrix alone, as a ``DenseGram`` checked once before the
timings (a bare array would be checked for symmetry and finiteness in every
timed call). svmlib.SVC's fit is both plus validation (the Gram matrix's
check included), the kernel diagonal and storing the model; its ratio to
the floor says what the estimator adds.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/smo_vs_sklearn.py
      (options: --repeats N (default 5), --threads T (default 1),
      --n N for the first N training images only, a quick check)
Targets: fit-time ratio <= 0.25, <= 1.3 x the floor, dual objectives
within 1e-4 relative, test-prediction agreement >= 99.9%.
"""

import argparse

import numpy as np
from _common import add_timing_options, full_alpha, mnist_3_vs_8, plus_minus
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.duality import dual_objective
from svmlib.gram import DenseGram
from svmlib.kernels import rbf_kernel
from svmlib.solvers import smo
from svmlib.timing import compare

C, GAMMA, TOL = 10.0, 0.02, 1e-3
CACHE_SIZE = 1024  # MiB, for both libraries


def main(repeats=5, threads=1, n=None):
    X_train, y_train, X_test, y_test = mnist_3_vs_8()
    if n is not None:
        X_train, y_train = X_train[:n], y_train[:n]
    print(
        f"MNIST 3 vs 8: {len(y_train)} training images, "
        f"{X_train.shape[1]} features; RBF C={C:g} gamma={GAMMA:g} "
        f"tol={TOL:g}; cache_size={CACHE_SIZE} MiB for both"
    )
    y_pm = plus_minus(y_train)
    # the Gram object checked once, here: the floor is the solver's work on
    # a matrix it can trust (a bare array is checked for symmetry and
    # finiteness at every call, which the estimator does once per fit)
    K32 = DenseGram(rbf_kernel(X_train, gamma=GAMMA))
    comparison = compare(
        {
            "svmlib.SVC": lambda: SVC(
                C=C, gamma=GAMMA, tol=TOL, cache_size=CACHE_SIZE
            ).fit(X_train, y_train),
            "sklearn SVC": lambda: SklearnSVC(
                C=C, gamma=GAMMA, tol=TOL, cache_size=CACHE_SIZE
            ).fit(X_train, y_train),
            "floor: Gram matrix": lambda: rbf_kernel(X_train, gamma=GAMMA),
            "floor: SMO on it": lambda: smo(K32, y_pm, C, tol=TOL),
        },
        baseline="sklearn SVC",
        repeats=repeats,
        threads=threads,
    )
    print(comparison)
    ours = comparison.timings["svmlib.SVC"].result
    reference = comparison.timings["sklearn SVC"].result
    for name, timing in comparison.timings.items():
        runs = ", ".join(f"{t:.3f}" for t in timing.seconds)
        print(f"{name} runs (s): {runs}")
    print(
        f"svmlib.SVC: {ours.n_iter_[0]} SMO steps, "
        f"{len(ours.support_)} support vectors; sklearn SVC: "
        f"{reference.n_iter_[0]} SMO steps, "
        f"{reference.n_support_.sum()} support vectors"
    )
    print(
        "fit-time ratio svmlib / sklearn (medians, same run): "
        f"{comparison.ratio('svmlib.SVC'):.3f}   (target <= 0.25)"
    )
    floor = sum(
        comparison.timings[name].median
        for name in ("floor: Gram matrix", "floor: SMO on it")
    )
    print(
        f"floor (Gram matrix + SMO on it): {floor:.3f} s; svmlib.SVC / "
        f"floor: {comparison.timings['svmlib.SVC'].median / floor:.3f}"
        "   (target <= 1.3)"
    )

    K = rbf_kernel(X_train.astype(np.float64), gamma=GAMMA)
    W_ours = dual_objective(ours.alpha_, K, y_pm)
    W_reference = dual_objective(
        full_alpha(reference.support_, reference.dual_coef_, len(y_train)),
        K,
        y_pm,
    )
    relative = abs(W_ours - W_reference) / abs(W_reference)
    print(
        f"dual objective: svmlib {W_ours:.6f}, sklearn {W_reference:.6f}, "
        f"relative difference {relative:.2e}   (target <= 1e-4)"
    )
    agreement = np.mean(ours.predict(X_test) == reference.predict(X_test))
    print(
        f"test accuracy: svmlib {ours.score(X_test, y_test):.4%}, "
        f"sklearn {reference.score(X_test, y_test):.4%}"
    )
    print(
        f"test-prediction agreement: {agreement:.4%} of {len(y_test)}"
        "   (target >= 99.9%)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser, repeats=5)
    parser.add_argument(
        "--n", type=int, default=None, help="first N training images only"
    )
    arguments = parser.parse_args()
    main(arguments.repeats, arguments.threads, arguments.n)
