"""Benchmark: svmlib.SVC against scikit-learn's SVC (LIBSVM) on MNIST 3 vs 8.

The setting of the book's case study: all 3s and 8s of MNIST, the 60% training
split of a stratified 60:20:20 split (8379 images), RBF kernel with C=10 and
gamma=0.02 (sigma=5), tol=1e-3. Both estimators are timed in the same run,
alternately, over several repeats; the script prints the ratio of the median
fit times, both dual objectives (computed on one float64 Gram matrix), and
how often the two models agree on the test split.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/smo_vs_sklearn.py
      (option: --repeats N, default 5)
Target: fit-time ratio <= 0.5, dual objectives within 1e-4 relative,
test-prediction agreement >= 99.9%.
"""

import argparse

import numpy as np
from _common import full_alpha, mnist_3_vs_8, plus_minus, timed
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.duality import dual_objective
from svmlib.kernels import rbf_kernel

C, GAMMA, TOL = 10.0, 0.02, 1e-3


def main(repeats):
    X_train, y_train, X_test, y_test = mnist_3_vs_8()
    print(
        f"MNIST 3 vs 8: {len(y_train)} training images, "
        f"{X_train.shape[1]} features; "
        f"RBF C={C:g} gamma={GAMMA:g} tol={TOL:g}; {repeats} repeats"
    )
    ours_times, reference_times = [], []
    for _ in range(repeats):
        ours = SVC(C=C, gamma=GAMMA, tol=TOL)
        reference = SklearnSVC(C=C, gamma=GAMMA, tol=TOL)
        ours_times.append(timed(ours.fit, X_train, y_train)[0])
        reference_times.append(timed(reference.fit, X_train, y_train)[0])

    y_pm = plus_minus(y_train)
    K = rbf_kernel(X_train.astype(np.float64), gamma=GAMMA)
    W_ours = dual_objective(ours.alpha_, K, y_pm)
    W_reference = dual_objective(
        full_alpha(reference.support_, reference.dual_coef_, len(y_train)),
        K,
        y_pm,
    )
    agreement = np.mean(ours.predict(X_test) == reference.predict(X_test))

    t_ours, t_reference = np.median(ours_times), np.median(reference_times)
    ours_runs = ", ".join(f"{t:.2f}" for t in ours_times)
    reference_runs = ", ".join(f"{t:.2f}" for t in reference_times)
    print(
        f"svmlib.SVC   fit: median {t_ours:.3f} s  (runs: {ours_runs}); "
        f"{ours.n_iter_[0]} SMO steps, {len(ours.support_)} support vectors"
    )
    print(
        f"sklearn SVC  fit: median {t_reference:.3f} s  "
        f"(runs: {reference_runs}); {reference.n_iter_[0]} SMO steps, "
        f"{reference.n_support_.sum()} support vectors"
    )
    print(
        f"fit-time ratio svmlib / sklearn: {t_ours / t_reference:.3f}"
        "   (target <= 0.5)"
    )
    relative = abs(W_ours - W_reference) / abs(W_reference)
    print(
        f"dual objective: svmlib {W_ours:.6f}, sklearn {W_reference:.6f}, "
        f"relative difference {relative:.2e}   (target <= 1e-4)"
    )
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
    parser.add_argument("--repeats", type=int, default=5)
    main(parser.parse_args().repeats)
