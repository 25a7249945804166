"""Benchmark: svmlib.SVC against scikit-learn's SVC (LIBSVM) on MNIST 3 vs 8.

The setting of the book's case study: all 3s and 8s of MNIST, the 60% training
split of a stratified 60:20:20 split (8379 images), RBF kernel with C=10 and
gamma=0.02 (sigma=5), tol=1e-3. Both estimators are timed in the same run,
alternately, over several repeats; the script prints the ratio of the median
fit times, both dual objectives (computed on one float64 Gram matrix), and
how often the two models agree on the test split.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/smo_vs_sklearn.py [--repeats 5]
Target: fit-time ratio <= 0.5, dual objectives within 1e-4 relative,
test-prediction agreement >= 99.9%.
"""

import argparse
import time

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC as SklearnSVC

from svmlib import SVC
from svmlib.datasets import load_mnist
from svmlib.duality import dual_objective
from svmlib.kernels import rbf_kernel

C, GAMMA, TOL = 10.0, 0.02, 1e-3


def mnist_3_vs_8(random_state=0):
    """Training and test splits of the case study (60% / 20%; validation unused)."""
    X, digit = load_mnist(digits=(3, 8))
    X_train, X_rest, y_train, y_rest = train_test_split(
        X, digit, train_size=0.6, stratify=digit, random_state=random_state
    )
    _, X_test, _, y_test = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=random_state)
    return X_train, y_train, X_test, y_test


def timed_fit(model, X, y):
    start = time.perf_counter()
    model.fit(X, y)
    return time.perf_counter() - start


def full_alpha(support, dual_coef, n):
    """The full-length alpha of a fitted model (|alpha_i y_i| = alpha_i)."""
    alpha = np.zeros(n)
    alpha[support] = np.abs(np.ravel(dual_coef))
    return alpha


def main(repeats):
    X_train, y_train, X_test, y_test = mnist_3_vs_8()
    print(f"MNIST 3 vs 8: {len(y_train)} training images, {X_train.shape[1]} features; "
          f"RBF C={C:g} gamma={GAMMA:g} tol={TOL:g}; {repeats} repeats")
    ours_times, reference_times = [], []
    for _ in range(repeats):
        ours = SVC(C=C, gamma=GAMMA, tol=TOL)
        reference = SklearnSVC(C=C, gamma=GAMMA, tol=TOL)
        ours_times.append(timed_fit(ours, X_train, y_train))
        reference_times.append(timed_fit(reference, X_train, y_train))

    y_pm = np.where(y_train == ours.classes_[1], 1.0, -1.0)
    K = rbf_kernel(X_train.astype(np.float64), gamma=GAMMA)
    W_ours = dual_objective(ours.alpha_, K, y_pm)
    W_reference = dual_objective(full_alpha(reference.support_, reference.dual_coef_, len(y_train)), K, y_pm)
    agreement = np.mean(ours.predict(X_test) == reference.predict(X_test))

    t_ours, t_reference = np.median(ours_times), np.median(reference_times)
    print(f"svmlib.SVC   fit: median {t_ours:.3f} s  (runs: {', '.join(f'{t:.2f}' for t in ours_times)}); "
          f"{ours.n_iter_} SMO steps, {len(ours.support_)} support vectors")
    print(f"sklearn SVC  fit: median {t_reference:.3f} s  (runs: {', '.join(f'{t:.2f}' for t in reference_times)}); "
          f"{reference.n_iter_[0]} SMO steps, {reference.n_support_.sum()} support vectors")
    print(f"fit-time ratio svmlib / sklearn: {t_ours / t_reference:.3f}   (target <= 0.5)")
    print(f"dual objective: svmlib {W_ours:.6f}, sklearn {W_reference:.6f}, "
          f"relative difference {abs(W_ours - W_reference) / abs(W_reference):.2e}   (target <= 1e-4)")
    print(f"test accuracy: svmlib {ours.score(X_test, y_test):.4%}, sklearn {reference.score(X_test, y_test):.4%}")
    print(f"test-prediction agreement: {agreement:.4%} of {len(y_test)}   (target >= 99.9%)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    main(parser.parse_args().repeats)
