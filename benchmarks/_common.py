"""Shared by the benchmarks: the case study's MNIST 3-vs-8 splits, options.

Every timing in the benchmarks comes from :mod:`svmlib.timing` (a warm-up
call, then the median of at least three calls, BLAS threads pinned and
printed, contenders compared in the same run); this module adds the
command-line options that set repeats and threads.
"""

import numpy as np
from sklearn.model_selection import train_test_split

from svmlib.datasets import load_mnist
from svmlib.timing import MIN_REPEATS

#: BLAS threads unless --threads says otherwise: scikit-learn's LIBSVM
#: runs on one thread, so one thread for svmlib too is the like-for-like
#: comparison (and a busy machine cannot take half of it away).
DEFAULT_THREADS = 1


def mnist_3_vs_8(random_state=0):
    """Training (60%) and test (20%) splits of all 3s and 8s, digit labels."""
    X, digit = load_mnist(digits=(3, 8))
    X_train, X_rest, y_train, y_rest = train_test_split(
        X, digit, train_size=0.6, stratify=digit, random_state=random_state
    )
    _, X_test, _, y_test = train_test_split(
        X_rest,
        y_rest,
        test_size=0.5,
        stratify=y_rest,
        random_state=random_state,
    )
    return X_train, y_train, X_test, y_test


def plus_minus(digits, positive=8):
    """Digit labels as -1.0 / +1.0 (``positive`` is +1)."""
    return np.where(digits == positive, 1.0, -1.0)


def full_alpha(support, dual_coef, n):
    """The full-length alpha of a fitted scikit-learn SVC.

    Its dual_coef_ holds alpha_i y_i, and |alpha_i y_i| = alpha_i.
    """
    alpha = np.zeros(n)
    alpha[support] = np.abs(np.ravel(dual_coef))
    return alpha


def add_timing_options(parser, repeats=MIN_REPEATS):
    """Add --repeats and --threads to an argparse parser; return it."""
    parser.add_argument(
        "--repeats",
        type=int,
        default=repeats,
        help=f"timed calls after one warm-up, at least {MIN_REPEATS} "
        f"(default {repeats}); the median is reported",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help=f"BLAS threads, pinned while timing (default {DEFAULT_THREADS})",
    )
    return parser
