"""Shared by the benchmarks: the case study's MNIST 3-vs-8 splits, a timer."""

import time

import numpy as np
from sklearn.model_selection import train_test_split

from svmlib.datasets import load_mnist


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


def timed(function, *args, **kwargs):
    """(seconds, result) of one call."""
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result
