"""Benchmark: the book's dual solvers on a 2000-image MNIST 3-vs-8 subset.

RBF sigma=5, C=10, each solver to its own stopping rule (tol=1e-3 where it
has one). Prints iterations, seconds (median of the repeats), the dual
objective and its relative gap to scikit-learn's, all measured in one run.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/solvers.py [--repeats 3]
"""

import argparse
import warnings

import numpy as np
from _common import full_alpha, mnist_3_vs_8, plus_minus, timed
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC as SklearnSVC

from svmlib.duality import dual_objective
from svmlib.kernels import rbf_kernel
from svmlib.solvers import simplified_smo, smo
from svmlib.solvers.dual_gd import dual_gd

SIGMA, C, N = 5.0, 10.0, 2000


def main(repeats):
    X_train, digits, _, _ = mnist_3_vs_8()
    X, y = X_train[:N], plus_minus(digits[:N])
    K = rbf_kernel(X, sigma=SIGMA).astype(np.float64)
    solvers = {
        "dual gradient ascent": lambda: dual_gd(K, y, C, max_iter=5000),
        "simplified SMO": lambda: simplified_smo(K, y, C, random_state=0),
        "Platt's SMO": lambda: smo(K, y, C, selection="platt", random_state=0),
        "SMO, WSS 2": lambda: smo(K, y, C),
    }
    reference = SklearnSVC(C=C, gamma=1 / (2 * SIGMA**2), kernel="precomputed")
    t_reference = np.median(
        [timed(reference.fit, K, y)[0] for _ in range(repeats)]
    )
    W_reference = dual_objective(
        full_alpha(reference.support_, reference.dual_coef_, N), K, y
    )

    print(
        f"MNIST 3 vs 8, first {N} training images, RBF sigma={SIGMA:g}, "
        f"C={C:g}; median of {repeats} runs"
    )
    print(
        f"{'solver':<24} {'iterations':>10} {'seconds':>8} "
        f"{'dual objective':>15} {'gap to sklearn':>15}"
    )
    for name, solve in solvers.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            runs = [timed(solve) for _ in range(repeats)]
        seconds, result = np.median([t for t, _ in runs]), runs[-1][1]
        gap = (W_reference - result.dual_objective) / W_reference
        print(
            f"{name:<24} {result.n_iter:>10} {seconds:>8.3f} "
            f"{result.dual_objective:>15.6f} {gap:>+15.2e}"
        )
    print(
        f"{'scikit-learn (LIBSVM)':<24} {reference.n_iter_[0]:>10} "
        f"{t_reference:>8.3f} {W_reference:>15.6f} {0:>+15.2e}"
    )
    print("(scikit-learn is given the same precomputed float64 Gram matrix)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    main(parser.parse_args().repeats)
