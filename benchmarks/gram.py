"""Benchmark: how svmlib computes kernel values, dense and cached.

On the MNIST 3-vs-8 training split of the case study (8379 images, float32),
RBF gamma=0.02, C=10, tol=1e-3:

1. The dense route. The Gram matrix rests on one product X X^T. Three ways
   to compute it, timed in the same run (svmlib.timing.compare): a general
   product ``sgemm`` (forced by multiplying by a copy of X), NumPy's
   ``X @ X.T`` (NumPy sees the same buffer on both sides and calls the
   symmetric rank-k update ``ssyrk``, half the multiplications, then copies
   the triangle it computed into the other), and ``ssyrk`` alone (one
   triangle, what a solver that reads only half the matrix could use). Then
   the whole RBF Gram matrix as svmlib computes it (the product, then the
   norms and the exponential in place, no temporary n x n array).
2. The cached route. ``svmlib.gram.CachedGram`` with cache sizes from a
   64th of the Gram matrix to all of it, under svmlib's SMO with and
   without shrinking: column requests, misses, hit rate and fit time.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/gram.py
      (options: --repeats N, --threads T (default 1), --n N for the first
      N training images only)
"""

import argparse

import numpy as np
from _common import add_timing_options, mnist_3_vs_8, plus_minus
from scipy.linalg.blas import ssyrk

from svmlib.gram import CachedGram, gram_fits
from svmlib.kernels import RBF, rbf_kernel
from svmlib.solvers import smo
from svmlib.timing import compare, time_call

C, GAMMA, TOL = 10.0, 0.02, 1e-3
FRACTIONS = (1 / 64, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1)


def dense_route(X, repeats, threads):
    """The product three ways, and the whole RBF Gram matrix."""
    copy = X.copy()
    comparison = compare(
        {
            "sgemm: X @ copy(X).T": lambda: X @ copy.T,
            "numpy X @ X.T (ssyrk + copy)": lambda: X @ X.T,
            "ssyrk alone (one triangle)": lambda: ssyrk(1.0, X.T, trans=1),
            "RBF Gram matrix (svmlib)": lambda: rbf_kernel(X, gamma=GAMMA),
        },
        repeats=repeats,
        threads=threads,
    )
    print(comparison)
    full = "numpy X @ X.T (ssyrk + copy)"
    print(
        "full matrix: ssyrk + copy / sgemm = "
        f"{comparison.ratio(full):.3f} (svmlib uses X @ X.T, so the "
        "faster of the two whenever NumPy picks ssyrk)"
    )
    exponent = comparison.timings["RBF Gram matrix (svmlib)"].median
    print(
        "norms and exponential in place add "
        f"{exponent / comparison.timings[full].median - 1:.1%} to the product"
    )


def cached_route(X, y, repeats, threads):
    """Hit rate and fit time against cache size."""
    gram_mib = X.shape[0] ** 2 * X.dtype.itemsize / 2**20
    print(f"Gram matrix: {gram_mib:.0f} MiB in float32")
    print(
        f"{'cache':>10} {'shrinking':>9} {'requests':>9} {'misses':>7} "
        f"{'hit rate':>8} {'steps':>6}  fit time"
    )
    for fraction in FRACTIONS:
        cache_size = fraction * gram_mib
        assert fraction == 1 or not gram_fits(len(y), X.dtype, cache_size)
        for shrinking in (True, False):

            def fit(cache_size=cache_size, shrinking=shrinking):
                gram = CachedGram(X, RBF(gamma=GAMMA), cache_size)
                return gram, smo(gram, y, C, tol=TOL, shrinking=shrinking)

            timing = time_call(fit, repeats=repeats, threads=threads)
            gram, result = timing.result
            requests = gram.hits + gram.misses
            print(
                f"{cache_size:7.1f} MiB {str(shrinking):>9} {requests:9d} "
                f"{gram.misses:7d} {gram.hits / requests:8.1%} "
                f"{result.n_iter:6d}  {timing}"
            )


def main(repeats=3, threads=1, n=None):
    X_train, digits, _, _ = mnist_3_vs_8()
    if n is not None:
        X_train, digits = X_train[:n], digits[:n]
    X = np.ascontiguousarray(X_train)
    print(
        f"MNIST 3 vs 8: {X.shape[0]} training images, {X.shape[1]} "
        f"features, {X.dtype}; RBF gamma={GAMMA:g}, C={C:g}, tol={TOL:g}"
    )
    print("\n--- dense route: the product X X^T")
    dense_route(X, repeats, threads)
    print("\n--- cached route: CachedGram under SMO")
    cached_route(X, plus_minus(digits), repeats, threads)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser)
    parser.add_argument(
        "--n", type=int, default=None, help="first N training images only"
    )
    arguments = parser.parse_args()
    main(arguments.repeats, arguments.threads, arguments.n)
