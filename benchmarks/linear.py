"""Benchmark: linear SVMs on MNIST 3 vs 8 (8379 training images).

svmlib.LinearSVC (dual coordinate descent) against LIBLINEAR through
scikit-learn's LinearSVC (dual=True, the same algorithm), and against the
kernel SMO of svmlib.SVC and scikit-learn's SVC with a linear kernel: the
same problem (C = 0.01, hinge loss unless said), each to its own stopping
rule. Prints medians and ratios measured in one run (svmlib.timing), the
primal objective of each linear model (the quantity both minimise, with the
bias regularised as LIBLINEAR does), its relative difference to LIBLINEAR's,
and test accuracy; at all BLAS threads and at one.

Run:  SVMLIB_DATA_DIR=../shared/data python benchmarks/linear.py
"""

import argparse
import warnings

import numpy as np
from _common import mnist_3_vs_8, plus_minus
from sklearn import svm
from sklearn.exceptions import ConvergenceWarning

from svmlib import SVC, LinearSVC
from svmlib.timing import blas_threads, compare

C = 0.01


def _primal(model, X, y, loss):
    """1/2 ||w||^2 + 1/2 b^2 + C sum loss: the objective with B = 1."""
    w, b = model.coef_.ravel(), float(np.ravel(model.intercept_)[0])
    slack = np.maximum(0.0, 1.0 - y * (X @ w + b))
    penalty = slack if loss == "hinge" else slack**2
    return 0.5 * (w @ w + b * b) + C * penalty.sum()


def _quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit()


def contenders(X, y, loss):
    """Name -> a function of no arguments that fits one model."""
    linear = {
        "LIBLINEAR (sklearn LinearSVC)": lambda: _quiet(
            lambda: svm.LinearSVC(
                C=C, loss=loss, dual=True, tol=0.1, random_state=0
            ).fit(X, y)
        ),
        "svmlib.LinearSVC": lambda: LinearSVC(
            C=C, loss=loss, tol=0.1, random_state=0
        ).fit(X, y),
    }
    if loss != "hinge":
        return linear
    return {
        **linear,
        "svmlib.SVC linear (SMO)": lambda: SVC(C=C, kernel="linear").fit(X, y),
        "sklearn SVC linear (LIBSVM)": lambda: svm.SVC(
            C=C, kernel="linear", cache_size=1024
        ).fit(X, y),
    }


def main(repeats=3, threads=(None, 1)):
    X, digits, X_test, digits_test = mnist_3_vs_8()
    y, y_test = plus_minus(digits), plus_minus(digits_test)
    print(f"MNIST 3 vs 8: {X.shape[0]} training images, {X.dtype}, C = {C}")
    for loss in ("hinge", "squared_hinge"):
        for n_threads in threads:
            shown = blas_threads() if n_threads is None else n_threads
            print(f"\n--- loss={loss}, {shown} BLAS thread(s)")
            result = compare(
                contenders(X, y, loss), repeats=repeats, threads=n_threads
            )
            print(result)
            _report(result, X, y, X_test, y_test, loss)


def _report(result, X, y, X_test, y_test, loss):
    reference = None
    for name, timing in result.timings.items():
        model = timing.result
        accuracy = np.mean(model.predict(X_test) == y_test)
        line = f"  {name:<30} test accuracy {accuracy:.4f}"
        if hasattr(model, "n_iter_") and "LinearSVC" in name:
            primal = _primal(model, X, y, loss)
            reference = reference or primal
            line += (
                f", primal {primal:.6f} "
                f"({(primal - reference) / reference:+.1e} vs LIBLINEAR), "
                f"{int(np.max(model.n_iter_))} passes"
            )
        print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    main(parser.parse_args().repeats)
